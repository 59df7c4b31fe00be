#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `read` inside `FileIO` would name `FileIO.read`.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Whole-file reads and atomic whole-file writes, on the C library directly.
///
/// Paths are byte strings carried in `String`s as ``PathBytes`` describes: a name that is not
/// UTF-8 reaches the system as the bytes given. The path `-` is standard input (``read(_:limit:limitName:)``) or
/// standard output (``writeAtomically(_:to:rule:inputs:)``), as Unix tools have it.
public enum FileIO {
    /// Files larger than this are refused before they are read (1 GiB).
    public static let maxReadSize = 1 << 30

    /// The path that names standard input or output.
    public static let standardStream = "-"

    /// Reads the whole file at `path`: a regular file, or a pipe, FIFO, socket or character
    /// device read to its end (`-` is standard input). A FIFO with no writer blocks until one
    /// opens it, as for any reader of a pipe.
    ///
    /// - Parameters:
    ///   - path: the file, or `-` for standard input.
    ///   - limit: the most bytes read (at most ``maxReadSize``): a regular file over it is refused
    ///     before it is read, a stream once it has given one byte more, and never read further.
    ///   - limitName: what the limit is, for the message (`the most a manifest may hold`); by
    ///     default the memory budget's share.
    /// - Throws: ``ImageFileError`` for a missing file, a directory, a block device, or more than
    ///   `limit` bytes.
    public static func read(_ path: String, limit: Int = maxReadSize, limitName: String? = nil) throws(ImageFileError) -> [UInt8] {
        let limit = max(0, min(limit, maxReadSize))
        let name = displayName(path)
        let fd = path == standardStream
            ? dup(0) : PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { throw systemError(name) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw systemError(name) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw ImageFileError(path: name, reason: "is a directory, not a file")
        case S_IFBLK: throw ImageFileError(path: name, reason: "is a block device, not a file")
        case S_IFREG:
            let expected = Int(status.st_size)
            guard expected <= limit else { throw tooLarge(name, limit: limit, limitName: limitName) }
            return try readAll(fd, name: name, expected: expected, limit: limit)
        default:
            // A stream: its size is unknown until its end.
            return try readStream(fd, name: name, limit: limit, limitName: limitName)
        }
    }

    /// Reads `path` whole if it is a regular file (a link to one is one) of at most `limit`
    /// bytes, and refuses anything else at once: a FIFO is opened without waiting for a writer,
    /// a device is never read. For files read as files, such as a catalogue's textures, which
    /// a planted FIFO or a link to `/dev/zero` must neither hang nor fill memory.
    ///
    /// - Throws: ``ImageFileError`` for a missing or unreadable file, a directory, a device, FIFO
    ///   or socket, or a file over `limit` bytes.
    package static func readRegular(_ path: String, limit: Int = maxReadSize) throws(ImageFileError) -> [UInt8] {
        let limit = max(0, min(limit, maxReadSize))
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw systemError(path) }
        defer { close(fd) }
        let expected = try regularSize(fd, path: path)
        guard expected <= limit else { throw tooLarge(path, limit: limit, limitName: nil) }
        return try readAll(fd, name: path, expected: expected, limit: limit)
    }

    /// The bytes of `path` if it is a regular file of at most `limit` bytes, else nil (missing,
    /// unreadable, too large, or a FIFO, device or directory). Never blocks on a FIFO: for files
    /// Kira only looks into, such as `kira batch`'s records, which a planted FIFO must not hang.
    /// With `followLinks` false a symbolic link is not followed (nil).
    package static func readRegularFile(_ path: String, limit: Int = maxReadSize, followLinks: Bool = true) -> [UInt8]? {
        let flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW)
        let fd = PathBytes.withCString(path) { open($0, flags) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) <= limit else {
            return nil
        }
        return try? readAll(fd, name: path, expected: Int(status.st_size))
    }

    /// Refuses `path` unless it is a regular file (a link to one is one), without blocking on a
    /// FIFO: for inputs read at start-up, which a link to `/dev/zero` or a FIFO must neither
    /// hang nor fill memory.
    ///
    /// - Throws: ``ImageFileError`` for a missing or unreadable file, a directory, or a device,
    ///   FIFO or socket.
    package static func checkRegularFile(_ path: String) throws(ImageFileError) {
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw systemError(path) }
        defer { close(fd) }
        _ = try regularSize(fd, path: path)
    }

    /// The size of the regular file open as `fd`; refuses a directory, a device, FIFO or socket.
    private static func regularSize(_ fd: Int32, path: String) throws(ImageFileError) -> Int {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw systemError(path) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return Int(status.st_size)
        case S_IFDIR: throw ImageFileError(path: path, reason: "is a directory, not a file")
        default: throw ImageFileError(path: path, reason: "is a device, FIFO or socket, not a regular file")
        }
    }

    /// Reads `fd`, a regular file of `expected` bytes, to its end (fewer if it shrinks while
    /// read, at most `limit`).
    private static func readAll(_ fd: Int32, name: String, expected: Int, limit: Int = maxReadSize) throws(ImageFileError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: min(expected, limit))
        let count = try fill(&bytes, from: fd, name: name)  // short: a file that shrank while being read
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Reads `fd` into `buffer` until it is full or the end comes; how many bytes it read.
    private static func fill(_ buffer: inout [UInt8], from fd: Int32, name: String) throws(ImageFileError) -> Int {
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { buffer in
                readBytes(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw systemError(name)
            }
            if n == 0 { break }
            count += n
        }
        return count
    }

    /// The bytes a stream is read in: each piece is filled before the next is allocated.
    static let streamPiece = 1 << 20

    /// Reads the stream `fd` to its end in pieces of ``streamPiece`` bytes, and stops once it has
    /// given one byte more than `limit`, never reading further: what is read is kept as it came,
    /// and joined once, at the stream's end.
    private static func readStream(_ fd: Int32, name: String, limit: Int, limitName: String?) throws(ImageFileError) -> [UInt8] {
        var pieces: [[UInt8]] = []
        var total = 0
        while true {
            // One byte over tells "too large".
            var piece = [UInt8](repeating: 0, count: min(streamPiece, limit + 1 - total))
            let count = try fill(&piece, from: fd, name: name)
            total += count
            guard total <= limit else { throw tooLarge(name, limit: limit, limitName: limitName) }
            piece.removeSubrange(count...)
            if !piece.isEmpty { pieces.append(piece) }
            if count < streamPiece { break }  // the end
        }
        guard pieces.count > 1 else { return pieces.first ?? [] }
        // Joined piece by piece, each freed once copied: the stream's bytes once, and a piece.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for index in pieces.indices {
            bytes.append(contentsOf: pieces[index])
            pieces[index] = []
        }
        return bytes
    }

    private static func tooLarge(_ name: String, limit: Int, limitName: String?) -> ImageFileError {
        if let limitName { return ImageFileError(path: name, reason: "larger than \(MemoryBudget.describe(limit)), \(limitName)") }
        return ImageFileError(path: name, reason: limit == maxReadSize ? "file is larger than \(maxReadSize >> 20) MiB"
            : "file is larger than the \(MemoryBudget.describe(limit)) the memory budget leaves for it; raise --max-memory")
    }

    /// Whether `path` names a stream: a FIFO, a pipe, a socket or a character device (through
    /// links), whose bytes are known only once read.
    package static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard PathBytes.withCString(path, { stat($0, &status) }) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
    }

    /// Whether `path` names an existing directory.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return PathBytes.withCString(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` names an existing regular file (links followed).
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return PathBytes.withCString(path) { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Creates the directory `path` unless it exists (its parent must exist). Another process
    /// creating it at the same moment is success, not an error.
    public static func makeDirectory(_ path: String) throws(ImageFileError) {
        if PathBytes.withCString(path, { mkdir($0, 0o777) }) == 0 { return }
        let code = errno
        if code == EEXIST {
            if isDirectory(path) { return }
            throw ImageFileError(path: path, reason: "cannot create the directory: a file of that name is in the way")
        }
        throw ImageFileError(path: path, reason: "cannot create the directory (\(errorText(code)))")
    }

    /// Creates the directory `path` and its missing parents, as `mkdir -p` does; other processes
    /// creating some of them at the same moment is success.
    package static func makeDirectories(_ path: String) throws(ImageFileError) {
        if path.isEmpty || path == "." || path == "/" || isDirectory(path) { return }
        try makeDirectories(parentDirectory(of: path))
        try makeDirectory(path)
    }

    /// How `path` is named in messages: `-` is "standard input/output".
    package static func displayName(_ path: String, output: Bool = false) -> String {
        path == standardStream ? (output ? "standard output" : "standard input") : path
    }

    /// The directory holding `path`: `.` for a bare name, `/` for a name at the root.
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    package static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    package static func systemError(_ path: String) -> ImageFileError {
        let code = errno
        let reason: String
        switch code {
        case ENOENT: reason = "no such file"
        case EACCES: reason = "permission denied"
        case EISDIR: reason = "is a directory, not a file"
        default: reason = String(cString: strerror(code))
        }
        return ImageFileError(path: path, reason: reason)
    }
}
