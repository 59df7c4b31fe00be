import KiraFiles
import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of numbered frames (`frame-0000.png`, or `.webp`, `.jpg`) and its index, `frames.csv`.
///
/// A run leaves exactly its own frames: numbered frames of an earlier run that this one does not
/// replace — beyond its count, or in another format — are removed (only names of this exact form;
/// other files are left alone), so a folder never mixes two runs.
public struct FrameDirectory: Sendable {
    public let path: String
    /// The frames' extension: `png`, `webp` or `jpg`.
    public let fileExtension: String

    public init(path: String, fileExtension: String = "png") {
        self.path = path
        self.fileExtension = fileExtension
    }

    public static let indexName = "frames.csv"

    /// The extensions numbered frames have, in any run.
    public static let frameExtensions = ["png", "webp", "jpg"]

    /// `frame-0042.png`: four digits at least, as many as the index needs.
    public func name(_ index: Int) -> String {
        let number = String(index)
        return "frame-\(String(repeating: "0", count: max(0, 4 - number.count)))\(number).\(fileExtension)"
    }

    /// The frame number and extension of a name a frame folder holds, or nil for any other name.
    public static func frame(named name: String) -> (index: Int, fileExtension: String)? {
        guard name.hasPrefix("frame-"), let dot = name.lastIndex(of: "."),
              case let suffix = String(name[name.index(after: dot)...]), frameExtensions.contains(suffix)
        else { return nil }
        let digits = name[name.index(name.startIndex, offsetBy: "frame-".count)..<dot]
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits) else { return nil }
        return (index, suffix)
    }

    public func write(frame index: Int, bytes: [UInt8]) throws {
        try FileIO.writeAtomically(bytes, to: "\(path)/\(name(index))")
    }

    /// After a run of `times.count` frames: writes the index (file name and time in seconds, one
    /// line per frame) and removes numbered frames this run did not write.
    public func finish(times: [Double]) throws {
        var index = "file,time_s\n"
        for (k, time) in times.enumerated() { index += "\(name(k)),\(time)\n" }
        try FileIO.writeAtomically(Array(index.utf8), to: "\(path)/\(Self.indexName)")
        for frame in try frames(from: times.count) {
            guard unlink(frame) == 0 || errno == ENOENT else {
                throw ImageFileError(path: frame, reason: "cannot remove a frame of an earlier run (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// The numbered frames in the folder that a run of `first` frames removes: from number
    /// `first` on, and those of another format; none when the folder does not exist yet.
    public func frames(from first: Int) throws -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return try entries().filter { name in
            guard let frame = Self.frame(named: name) else { return false }
            return frame.index >= first || frame.fileExtension != fileExtension
        }.map { "\(path)/\($0)" }
    }

    /// Refuses, before any work, a directory at a name a run writes or removes (a numbered frame
    /// or the index): neither `rename` nor `unlink` replaces one, so the run would otherwise
    /// render and write everything and only then fail. Nothing to check when the folder does not
    /// exist yet.
    public func checkReplaceable() throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        for name in try entries() where name == Self.indexName || Self.frame(named: name) != nil {
            let entry = "\(path)/\(name)"
            guard lstat(entry, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { continue }
            throw ImageFileError(path: entry, reason: "a directory where this run writes or removes a frame file; move or rename it")
        }
    }

    private func entries() throws -> [String] {
        guard let directory = opendir(path) else {
            throw ImageFileError(path: path, reason: "cannot list the directory (\(String(cString: strerror(errno))))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        return names
    }
}
