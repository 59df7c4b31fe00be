import ArgumentParser
import Kira
import KiraFiles

private typealias P = RenderParameters

/// Where a command writes its image when `--output` is not given.
protocol DefaultOutput {
    static var path: String { get }
}

/// The image file a command writes (its format by its extension), and how it is stored.
///
/// A path the user gives must be in an existing directory; the default path's folder is created.
struct OutputOptions<Default: DefaultOutput>: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp(
        "The image to write, replaced atomically: .png, .webp or .jpg (or .jpeg), by its extension (default: \(Default.path), its folder created).",
        valueName: "path"))
    var output: String?

    @OptionGroup var format: FormatOptions

    func validate() throws {
        if let output { _ = try OutputPath.format(of: output, option: "--output") }
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

    /// Where the default output was written, for stderr once it is; nil when the user named the output.
    var defaultNote: String? {
        output == nil ? "wrote \(Default.path) (the default: no --output given)" : nil
    }

    /// The path the output will have, without creating anything (for the input/output check).
    var path: String { output ?? Default.path }

    /// Refuses, as a usage error, an output whose format the request cannot store (`format`
    /// checks the path: its extension against the request's settings).
    func check(_ format: (String) throws(RequestError) -> StillFormat) throws {
        do {
            _ = try format(path)
        } catch {
            throw ValidationError(error.commandLine)
        }
    }
}

/// How the image is stored: bits per channel and compression of a PNG, quality of a WebP or a
/// JPEG, the size it is scaled down to.
struct FormatOptions: ParsableArguments {
    @Option(name: P.depth.long, help: P.depth.argumentHelp, completion: P.depth.completion) var depth: String?
    @Option(name: P.compression.long, help: P.compression.argumentHelp, completion: P.compression.completion) var compression: String?
    @OptionGroup var lossy: LossyOptions
    @OptionGroup var scaling: ScalingOptions

    var values: [(String, String)] { given([(P.depth, depth), (P.compression, compression)]) + lossy.values + scaling.values }
}

/// The quality of a WebP or a JPEG, or a lossless WebP.
struct LossyOptions: ParsableArguments {
    @Option(name: P.quality.long, parsing: P.quality.parsing, help: P.quality.argumentHelp) var quality: String?
    @Flag(name: P.lossless.long, help: P.lossless.argumentHelp) var lossless = false

    var values: [(String, String)] { given([(P.quality, quality), (P.lossless, given(lossless))]) }
}

/// The size an image is scaled down to.
struct ScalingOptions: ParsableArguments {
    @Option(name: P.width.long, parsing: P.width.parsing, help: P.width.argumentHelp) var width: String?
    @Option(name: P.height.long, parsing: P.height.parsing, help: P.height.argumentHelp) var height: String?

    var values: [(String, String)] { given([(P.width, width), (P.height, height)]) }
}

enum OutputPath {
    /// The format of a still's file name, by its extension (``OutputSettings/format(ofFile:parameter:)``).
    static func format(of path: String, option: String) throws -> StillFormat {
        do {
            return try OutputSettings.format(ofFile: path, parameter: String(option.dropFirst(2)))
        } catch {
            throw ValidationError(error.commandLine)
        }
    }

    /// Refuses a name Kira cannot write as a PNG-only output (``OutputSettings/checkFileName(_:parameter:extensions:)``).
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
            throw InputError("\(QuotedValue.shown(path)): cannot create a file in \(QuotedValue.shown(folder)): no such directory (Kira creates only its default output folders)")
        }
    }
}
