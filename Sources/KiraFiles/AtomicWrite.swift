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
    ///   and on SIGINT, SIGTERM and SIGHUP once ``TerminationCleanup/installSignalHandlers()``
    ///   was called.
    /// - a symbolic link: the file it points to is replaced, the link stays; a dangling link
    ///   is refused.
    /// - a character device or a FIFO (a terminal, `/dev/null`, a named pipe), or `-`
    ///   (standard output): written in place, never replaced; its errors (ENOSPC from a full
    ///   device, say) are reported. Such a write is not atomic. A FIFO without a reader blocks
    ///   until one opens it.
    /// - a directory, a block device or a socket: refused.
    ///
    /// `rule` says which of these a path may be (``OutputRule``); an output that is one of
    /// `inputs` (by device and inode, under any name or link) is refused.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, rule: OutputRule = .userNamed,
                                       inputs: [String] = []) throws(ImageFileError) {
        let file = try AtomicOutputFile(path: path, rule: rule, inputs: inputs)
        try file.write(bytes)
        try file.commit()
    }

    /// The longest file name (bytes) the temporary names must fit in.
    static let maxNameLength = 255

    /// `.NAME.kira-PID-`, with NAME cut so that the whole temporary name, with a suffix of up to
    /// eight characters, fits in ``maxNameLength`` bytes.
    static func temporaryNamePrefix(_ fileName: [UInt8]) -> [UInt8] {
        let tail = Array(".kira-\(getpid())-".utf8)
        let room = maxNameLength - 1 - tail.count - 8  // room for an 8-character suffix
        return Array(".".utf8) + fileName.prefix(room) + tail
    }

    /// Flushes a directory's entries (the rename) to the disk. Best effort: some file systems
    /// cannot, and the file is whole either way: old or new.
    static func syncDirectory(_ directory: String) {
        let fd = PathBytes.withCString(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Writes all of `bytes` to `fd`; the system's message on failure.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }

    /// Writes all of `bytes` to `fd`, again after an interrupted call; the system's message on
    /// failure.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                return errorText(errno)
            }
            written += n
        }
        return nil
    }

    /// The canonical path `path` resolves to, or nil when it does not resolve.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.string(cString: resolved)
    }
}
