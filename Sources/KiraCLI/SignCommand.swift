import ArgumentParser
import Kira
import KiraServerAPI

/// `kira sign`: the signed, canonical form of a render URL, for a server started with --key-file.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a render URL for a kira serve started with --key-file: prints the canonical URL with its sig parameter.",
        discussion: """
            The signature is HMAC-SHA256 with the key of the URL's path and canonical query (the \
            non-default values in a fixed order, canonically spelled), in base64url; see docs/serve.md.
            """
    )

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The file with the server's key.", valueName: "path"))
    var keyFile: String

    @Argument(help: ArgumentHelp("The URL, e.g. 'http://127.0.0.1:8080/v1/cards/sample/render.png?tilt_x=8' (or only its path and query).", valueName: "url"))
    var url: String

    func run() throws {
        let key: [UInt8]
        do { key = try URLSignature.readKey(path: keyFile) } catch { throw InputError(error.description) }
        do {
            try writeToStandardOutput(try URLSignature(key: key).sign(url: url) + "\n")
        } catch let error as RequestError {
            throw InputError(error.description)
        }
    }
}
