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
public enum FileIO {
    /// Files larger than this are refused before they are read (1 GiB).
    public static let maxReadSize = 1 << 30

    /// Reads the whole file at `path`.
    ///
    /// - Throws: ``ImageFileError`` for a missing file, a directory, or a file over ``maxReadSize``.
    public static func read(_ path: String) throws(ImageFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw systemError(path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw systemError(path) }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw ImageFileError(path: path, reason: "is a directory, not a file")
        }
        let expected = Int(status.st_size)
        guard expected <= maxReadSize else {
            throw ImageFileError(path: path, reason: "file is larger than \(maxReadSize >> 20) MiB")
        }
        var bytes = [UInt8](repeating: 0, count: expected)
        var count = 0
        while count < expected {
            let n = bytes.withUnsafeMutableBytes { buffer in
                readBytes(fd, buffer.baseAddress! + count, expected - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw systemError(path)
            }
            if n == 0 { break }  // the file shrank while being read
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `bytes` to `path` so that the file appears whole or not at all.
    ///
    /// The bytes go to a temporary file in the same directory, which is then renamed over
    /// `path`; on any failure the temporary file is removed and `path` is left as it was.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        let directory = parentDirectory(of: path)
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        guard !name.isEmpty else {
            throw ImageFileError(path: path, reason: "output path names a directory, not a file")
        }
        var template = Array("\(directory)/.\(name).kira-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw ImageFileError(path: path, reason: "cannot create a file in \(directory): \(errorText())")
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var failure: String?
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errorText()
                break
            }
            written += n
        }
        // mkstemp creates the file readable by its owner only; give it the usual mode.
        if failure == nil {
            let mask = umask(0)
            umask(mask)
            if fchmod(fd, 0o666 & ~mask) != 0 { failure = errorText() }
        }
        if close(fd) != 0, failure == nil { failure = errorText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw ImageFileError(path: path, reason: "cannot write: \(failure)")
        }
    }

    /// Whether `path` names an existing directory.
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        return parent.isEmpty ? "/" : String(parent)
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }

    static func systemError(_ path: String) -> ImageFileError {
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
