import CKiraFiles

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
    /// The bytes go to an unnamed file in the same directory (Linux `O_TMPFILE`), which gets a
    /// temporary name only once complete and is then renamed over `path`: a process killed while
    /// writing leaves nothing behind. Where unnamed files are not supported, a named temporary
    /// file in the same directory is used, removed on any failure. `path` is never left half
    /// written.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        let directory = parentDirectory(of: path)
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        guard !name.isEmpty, name != ".", name != ".." else {
            throw ImageFileError(path: path, reason: "output path names a directory, not a file")
        }
        if isDirectory(path) { throw ImageFileError(path: path, reason: "is a directory, not a file") }
        let temporaryBase = "\(directory)/.\(name).kira-\(getpid())"

        var fd = kira_open_unnamed(directory)
        var temporary: String?  // the name the file has before the rename, once it has one
        if fd < 0 {
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(directory): \(errorText(code))")
            }
            var template = Array("\(temporaryBase)-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(directory): \(errorText(errno))")
            }
            temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // mkstemp creates the file readable by its owner only; give it the usual mode.
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }

        var failure: String?
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errorText(errno)
                break
            }
            written += n
        }
        if failure == nil, temporary == nil {
            // Name the finished file, then move it into place.
            var attempt = 0
            while true {
                let candidate = "\(temporaryBase)-\(attempt)"
                if kira_name_unnamed(fd, candidate) == 0 {
                    temporary = candidate
                    break
                }
                if errno != EEXIST || attempt > 100 {
                    failure = errorText(errno)
                    break
                }
                attempt += 1
            }
        }
        if close(fd) != 0, failure == nil { failure = errorText(errno) }
        if failure == nil, let temporary, rename(temporary, path) != 0 { failure = errorText(errno) }
        if let failure {
            if let temporary { unlink(temporary) }
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

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
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
