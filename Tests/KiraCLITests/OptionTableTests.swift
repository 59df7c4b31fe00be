import Foundation
import Kira
import KiraCatalogue
import Testing

/// The options of `kira shade`, `render` and `animate` are declared as properties (so that help,
/// completions and the man page see them), but their names, value names and help come from the
/// request's table of parameters: every parameter is an option, every option of a request is a
/// parameter, spelled alike and helped alike.
@Suite struct OptionTableTests {
    struct Option: Equatable, CustomStringConvertible {
        var name: String
        var valueName: String?
        var help: String
        var description: String { "--\(name) <\(valueName ?? "")>: \(help)" }
    }

    /// The command's options as argument-parser describes them (`--experimental-dump-help`),
    /// without the hidden ones (a former spelling kept for a release).
    static func options(of command: String) throws -> [Option] {
        let result = try CLIRunner.run([command, "--experimental-dump-help"], in: FileManager.default.temporaryDirectory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let arguments = (json?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
        return arguments.compactMap { argument in
            guard argument["shouldDisplay"] as? Bool != false, let name = (argument["preferredName"] as? [String: Any])?["name"] as? String,
                  (argument["preferredName"] as? [String: Any])?["kind"] as? String == "long" else { return nil }
            return Option(name: name, valueName: argument["kind"] as? String == "flag" ? nil : argument["valueName"] as? String,
                          help: argument["abstract"] as? String ?? "")
        }
    }

    static func expected<Root>(_ parameters: [RequestParameter<Root>]) -> [Option] {
        parameters.map { parameter in
            Option(name: String(parameter.option.dropFirst(2)), valueName: parameter.kind == .flag ? nil : parameter.valueName,
                   help: parameter.help(naming: { "--" + $0.replacingOccurrences(of: "_", with: "-") }))
        }
    }

    /// What a command takes besides its request: where it writes, how many threads, the budget.
    static let processOptions: Set<String> = ["output", "threads", "max-memory", "help", "version", "output-dir", "apng", "sheet",
                                              "columns", "video", "crf", "video-width", "ffmpeg", "quiet"]

    @Test(arguments: [
        ("shade", expected(ShadeRequest.parameters)),
        ("render", expected(RenderRequest.parameters)),
        ("animate", expected(AnimationRequest.parameters)),
    ])
    func optionsAreTheTablesEntries(command: String, parameters: [Option]) throws {
        let options = try Self.options(of: command).filter { !Self.processOptions.contains($0.name) }
        #expect(options.count == parameters.count, "\(command): \(options.map(\.name)) against \(parameters.map(\.name))")
        for parameter in parameters {
            let option = options.first { $0.name == parameter.name }
            #expect(option == parameter, "kira \(command) --\(parameter.name): \(option.map(\.description) ?? "missing") against the table's \(parameter)")
        }
    }

    /// A manifest's columns are the render request's parameters (and the output).
    @Test func manifestColumnsAreRenderParameters() {
        #expect(CataloguePlan.columns == Set(["output"] + RenderRequest.parameters.map(\.name)))
    }
}
