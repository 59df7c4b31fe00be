import CKiraFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileIO {
    /// Writes `bytes` to `path`; a regular file appears whole or not at all.
    ///
    /// What `path` names decides how:
    /// - nothing yet, or a regular file: the bytes go to an unnamed file in the same directory
    ///   (Linux `O_TMPFILE`), are flushed to the disk (`fsync`), and the file is then linked
    ///   under `path` (a new file) or under a hidden temporary name and renamed over `path`;
    ///   the directory is flushed after. A replaced file keeps its permission bits. Where
    ///   unnamed files are unsupported (or `KIRA_NAMED_TEMPORARY_FILES` is set), a named
    ///   temporary file is written instead. Either way temporary files are removed on failure,
    ///   and on SIGINT, SIGTERM and SIGHUP once ``removeTemporaryFilesOnTermination()`` was
    ///   called.
    /// - a symbolic link: the file it points to is replaced, the link stays; a dangling link
    ///   is refused.
    /// - a character device or a FIFO (a terminal, `/dev/null`, a named pipe), or `-`
    ///   (standard output): written in place, never replaced; its errors (ENOSPC from a full
    ///   device, say) are reported. Such a write is not atomic. A FIFO without a reader blocks
    ///   until one opens it.
    /// - a directory, a block device or a socket: refused.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(ImageFileError) {
        if path == standardStream {
            if let failure = writeAll(bytes, to: 1) {
                throw ImageFileError(path: displayName(path, output: true), reason: "cannot write: \(failure)")
            }
            return
        }
        var target = path
        var status = stat()
        if PathBytes.withCString(target, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realPath(target) else {
                throw ImageFileError(path: path, reason: "is a symbolic link to a missing file")
            }
            target = resolved
        }
        var mode: mode_t?  // the permission bits of a file being replaced
        if PathBytes.withCString(target, { stat($0, &status) }) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: mode = status.st_mode & 0o7777
            case S_IFCHR, S_IFIFO: return try writeInPlace(bytes, to: target, name: path)
            case S_IFDIR: throw ImageFileError(path: path, reason: "is a directory, not a file")
            default:
                throw ImageFileError(path: path, reason: "is a block device or a socket: Kira writes only regular files, character devices and pipes")
            }
        } else if errno != ENOENT {
            throw ImageFileError(path: path, reason: "cannot write: \(errorText(errno))")
        }
        try replace(target, with: bytes, mode: mode, name: path)
    }

    /// Makes SIGINT, SIGTERM and SIGHUP remove the temporary files of writes under way before
    /// the process ends (with the signal, as it would have). Signals the parent process set to
    /// be ignored stay ignored; a handler already installed runs after this one (handlers that
    /// restore what they found and raise the signal again, as Kira's video guard does, chain
    /// either way round). For programs, like the `kira` tool, that own their signal handling.
    public static func removeTemporaryFilesOnTermination() {
        kira_cleanup_install()
    }

    // MARK: Regular files

    /// The longest file name (bytes) the temporary names must fit in.
    static let maxNameLength = 255

    private static func replace(_ target: String, with bytes: [UInt8], mode: mode_t?, name: String) throws(ImageFileError) {
        let directory = parentDirectory(of: target)
        let fileName = PathBytes.bytes(String(target.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
        guard !fileName.isEmpty, fileName != Array(".".utf8), fileName != Array("..".utf8) else {
            throw ImageFileError(path: name, reason: "output path names a directory, not a file")
        }
        let temporaryPrefix = temporaryNamePrefix(fileName)
        let directoryBytes = PathBytes.bytes(directory)
        func temporaryPath(_ suffix: String) -> [CChar] {
            (directoryBytes + Array("/".utf8) + temporaryPrefix + Array(suffix.utf8) + [0]).map { CChar(bitPattern: $0) }
        }

        var slot: Int32 = -1  // the temporary name's cleanup slot, while it has one
        defer { kira_cleanup_forget(slot) }
        var temporary: [CChar]?  // the file's name before the rename, once it has one
        var fd: Int32 = -1
        if getenv("KIRA_NAMED_TEMPORARY_FILES") == nil {
            fd = PathBytes.withCString(directory) { kira_open_unnamed($0) }
        } else {
            errno = EOPNOTSUPP
        }
        if fd < 0 {
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw ImageFileError(path: name, reason: "cannot create a file in \(directory): \(errorText(code))")
            }
            var template = temporaryPath("XXXXXX")
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw ImageFileError(path: name, reason: "cannot create a file in \(directory): \(errorText(errno))")
            }
            slot = kira_cleanup_remember(template)
            temporary = template
            // mkstemp creates the file readable by its owner only; give it the usual mode.
            if mode == nil {
                let mask = umask(0)
                umask(mask)
                fchmod(fd, 0o666 & ~mask)
            }
        }

        var failure = writeAll(bytes, to: fd)
        if failure == nil, let mode, fchmod(fd, mode) != 0 { failure = errorText(errno) }
        // Whole or none across a power loss too: the data reaches the disk before the name.
        if failure == nil, fsync(fd) != 0 { failure = errorText(errno) }
        var linkedInPlace = false
        if failure == nil, temporary == nil {
            // A new file can take its name directly: no temporary name at all.
            if mode == nil, PathBytes.withCString(target, { kira_name_unnamed(fd, $0) }) == 0 {
                linkedInPlace = true
            } else if mode == nil, errno != EEXIST {
                failure = errorText(errno)
            } else {
                for attempt in 0...100 {
                    let candidate = temporaryPath(String(attempt))
                    if kira_name_unnamed(fd, candidate) == 0 {
                        slot = kira_cleanup_remember(candidate)
                        temporary = candidate
                        break
                    }
                    if errno != EEXIST || attempt == 100 {
                        failure = errorText(errno)
                        break
                    }
                }
            }
        }
        if close(fd) != 0, failure == nil { failure = errorText(errno) }
        if failure == nil, !linkedInPlace, let temporary,
           PathBytes.withCString(target, { rename(temporary, $0) }) != 0 {
            failure = errorText(errno)
        }
        if let failure {
            if let temporary { unlink(temporary) }
            throw ImageFileError(path: name, reason: "cannot write: \(failure)")
        }
        syncDirectory(directory)
    }

    /// `.NAME.kira-PID-`, with NAME cut so that the whole temporary name, with a suffix of up to
    /// six characters, fits in ``maxNameLength`` bytes.
    static func temporaryNamePrefix(_ fileName: [UInt8]) -> [UInt8] {
        let tail = Array(".kira-\(getpid())-".utf8)
        let room = maxNameLength - 1 - tail.count - 6
        return Array(".".utf8) + fileName.prefix(room) + tail
    }

    /// Flushes a directory's entries (the rename) to the disk. Best effort: some file systems
    /// cannot, and the file is whole either way: old or new.
    private static func syncDirectory(_ directory: String) {
        let fd = PathBytes.withCString(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    // MARK: Devices and pipes

    private static func writeInPlace(_ bytes: [UInt8], to target: String, name: String) throws(ImageFileError) {
        let fd = PathBytes.withCString(target) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { throw ImageFileError(path: name, reason: "cannot write: \(errorText(errno))") }
        var failure = writeAll(bytes, to: fd)
        if close(fd) != 0, failure == nil { failure = errorText(errno) }
        if let failure { throw ImageFileError(path: name, reason: "cannot write: \(failure)") }
    }

    /// Writes all of `bytes` to `fd`; the system's message on failure.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                return errorText(errno)
            }
            written += n
        }
        return nil
    }

    /// The canonical path `path` resolves to, or nil when it does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }
}
