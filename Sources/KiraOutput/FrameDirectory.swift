import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of numbered frames (`frame-0000.png`, …) and its index, `frames.csv`.
///
/// A run leaves exactly its own frames: numbered frames of an earlier, longer run are removed
/// (only names of this exact form; other files are left alone), so a folder never mixes two runs.
public struct FrameDirectory: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public static let indexName = "frames.csv"

    /// `frame-0042.png`: four digits at least, as many as the index needs.
    public static func name(_ index: Int) -> String {
        let number = String(index)
        return "frame-\(String(repeating: "0", count: max(0, 4 - number.count)))\(number).png"
    }

    /// The frame number of a name this folder writes, or nil for any other name.
    public static func index(of name: String) -> Int? {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst("frame-".count).dropLast(".png".count)
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    public func write(frame index: Int, bytes: [UInt8]) throws {
        try FileIO.writeAtomically(bytes, to: "\(path)/\(Self.name(index))")
    }

    /// After a run of `times.count` frames: writes the index (file name and time in seconds, one
    /// line per frame) and removes numbered frames beyond the run.
    public func finish(times: [Double]) throws {
        var index = "file,time_s\n"
        for (k, time) in times.enumerated() { index += "\(Self.name(k)),\(time)\n" }
        try FileIO.writeAtomically(Array(index.utf8), to: "\(path)/\(Self.indexName)")
        for frame in try frames(from: times.count) {
            guard unlink(frame) == 0 || errno == ENOENT else {
                throw ImageFileError(path: frame, reason: "cannot remove a frame of an earlier run (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// The numbered frames in the folder from number `first` on (those a run of `first` frames
    /// removes); none when the folder does not exist yet.
    public func frames(from first: Int) throws -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        return try entries().filter { (Self.index(of: $0) ?? -1) >= first }.map { "\(path)/\($0)" }
    }

    /// Refuses, before any work, a directory at a name a run writes or removes (a numbered frame
    /// or the index): neither `rename` nor `unlink` replaces one, so the run would otherwise
    /// render and write everything and only then fail. Nothing to check when the folder does not
    /// exist yet.
    public func checkReplaceable() throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        for name in try entries() where name == Self.indexName || Self.index(of: name) != nil {
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
