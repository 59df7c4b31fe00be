import ArgumentParser
import Kira

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bits per channel of the PNGs written.
struct DepthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Bits per channel of the output PNG: 8 or 16.", valueName: "8|16"))
    var depth = 8

    func validate() throws {
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth must be 8 or 16, not \(depth)") }
    }
}

/// Where a command writes its image when `--output` is not given.
protocol DefaultOutput {
    static var path: String { get }
}

/// The PNG file a command writes, and its bit depth.
///
/// A path the user gives must be in an existing directory; the default path's folder is created.
struct OutputOptions<Default: DefaultOutput>: ParsableArguments {
    @Option(name: [.short, .long], help: ArgumentHelp(
        "The PNG file to write, replaced atomically (default: \(Default.path), its folder created).", valueName: "path"))
    var output: String?

    @OptionGroup var depth: DepthOptions

    @Option(help: ArgumentHelp(
        "PNG compression: standard (libdeflate level 6, adaptive filters; zlib level 6 at 16 bits) or fast (igzip level 2, Paeth filter: several times faster to write, larger files).",
        valueName: "standard|fast"))
    var compression: Compression = .standard

    enum Compression: String, ExpressibleByArgument, CaseIterable {
        case standard, fast

        var options: PNGCodec.EncodingOptions { self == .standard ? .standard : .fast }
    }

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

enum OutputPath {
    /// Kira writes PNG only: a file named otherwise would hold PNG bytes under a false name.
    static func checkPNG(_ path: String, option: String, extensions: [String] = ["png"]) throws {
        guard !path.isEmpty, !path.hasSuffix("/") else { throw ValidationError("\(option) must name a file") }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let suffix = name[name.index(after: dot)...].lowercased()
        guard extensions.contains(suffix) else {
            throw ValidationError("\(option) \(path): Kira writes PNG files only; name it .\(extensions[0]) (convert afterwards for .\(suffix))")
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
