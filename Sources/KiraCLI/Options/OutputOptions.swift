import ArgumentParser
import Kira

private typealias P = RenderParameters

/// Where a command writes its image when `--output` is not given.
protocol DefaultOutput {
    static var path: String { get }
}

/// The PNG file a command writes, its bit depth and compression.
///
/// A path the user gives must be in an existing directory; the default path's folder is created.
struct OutputOptions<Default: DefaultOutput>: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp(
        "The PNG file to write, replaced atomically (default: \(Default.path), its folder created).", valueName: "path"))
    var output: String?

    @OptionGroup var format: FormatOptions

    func validate() throws {
        if let output { try OutputPath.checkPNG(output, option: "--output") }
    }

    /// The path to write; creates the default path's folder. A path the user gave is checked for
    /// its folder here, before any work, so that a mistyped folder fails at once rather than
    /// after the render.
    func prepare() throws -> String {
        if let output {
            try OutputPath.checkFolder(of: output)
            return output
        }
        try FileIO.makeDirectories(FileIO.parentDirectory(of: Default.path))
        return Default.path
    }

    /// The path the output will have, without creating anything (for the input/output check).
    var path: String { output ?? Default.path }
}

/// Bits per channel and compression of the PNGs written.
struct FormatOptions: ParsableArguments {
    @Option(name: P.depth.long, help: P.depth.argumentHelp, completion: P.depth.completion) var depth: String?
    @Option(name: P.compression.long, help: P.compression.argumentHelp, completion: P.compression.completion) var compression: String?

    var values: [(String, String)] { given([(P.depth, depth), (P.compression, compression)]) }
}

enum OutputPath {
    /// Refuses a name Kira cannot write (``OutputSettings/checkFileName(_:parameter:extensions:)``).
    static func checkPNG(_ path: String, option: String, extensions: [String] = ["png"]) throws {
        do {
            try OutputSettings.checkFileName(path, parameter: String(option.dropFirst(2)), extensions: extensions)
        } catch {
            throw ValidationError(error.commandLine)
        }
    }

    /// Refuses a file path whose folder does not exist (Kira creates only its default folders);
    /// `-` (standard output) has none.
    static func checkFolder(of path: String) throws {
        guard path != FileIO.standardStream else { return }
        let folder = FileIO.parentDirectory(of: path)
        guard FileIO.isDirectory(folder) else {
            throw InputError("\(path): cannot create a file in \(folder): no such directory (Kira creates only its default output folders)")
        }
    }
}
