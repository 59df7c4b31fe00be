import CKiraFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one door through which Kira opens what it writes: a file written piece by piece that
/// appears under its name whole, or not at all (``FileIO/writeAtomically(_:to:rule:inputs:)`` is
/// its whole-buffer form; ffmpeg's videos go through it too). See there for what each kind of
/// path gets: regular files are replaced atomically and flushed to the disk, devices and FIFOs
/// written in place, symbolic links written through, as ``OutputRule`` says.
///
/// Until ``commit()`` succeeds a regular file's path is untouched, and a writer released without
/// it (an error, a throw elsewhere) removes what it wrote.
package final class AtomicOutputFile {
    /// The path as given (for messages).
    package let path: String
    /// Where the bytes go: `path` with a symbolic link resolved.
    private let target: String
    private var fd: Int32
    /// A device, FIFO or standard output: written in place, nothing to rename.
    private let inPlace: Bool
    /// The permission bits of the regular file being replaced, if any.
    private let mode: mode_t?
    private var temporary: [CChar]?  // the file's name before the rename, once it has one
    private var slot: Int32 = -1  // its cleanup slot (TerminationCleanup)
    private var committed = false

    /// Where a child process (ffmpeg) that writes this file puts its bytes.
    package enum ChildOutput: Equatable {
        /// A temporary file beside the target, by name: ffmpeg opens it (and may reopen it).
        case file(String)
        /// The device or FIFO itself, open for writing: the child's standard output.
        case descriptor(Int32)
    }

    /// Starts the file that ``commit()`` will place at `path`, by `rule`.
    ///
    /// - Parameters:
    ///   - inputs: files the command reads; an output that is one of them (by device and inode,
    ///     under any name or link) is refused.
    ///   - forChildProcess: the bytes come from another program that needs a path
    ///     (``childOutput``): the temporary file is a named one.
    /// - Throws: ``ImageFileError`` when `path` names a directory, a block device or a socket,
    ///   a symbolic link to nothing, one of `inputs`, something `rule` refuses, or a place that
    ///   cannot take a new file.
    package init(path: String, rule: OutputRule = .userNamed, inputs: [String] = [],
                 forChildProcess: Bool = false) throws(ImageFileError) {
        self.path = path
        let replacing = rule == .kiraNamed
        if path == FileIO.standardStream {
            guard rule == .userNamed else { throw ImageFileError(path: "standard output", reason: "cannot take this output") }
            (target, fd, inPlace, mode) = (path, dup(1), true, nil)
            if fd < 0 { throw ImageFileError(path: "standard output", reason: "cannot write: \(FileIO.errorText(errno))") }
            return
        }
        if !inputs.isEmpty, let identity = FileIdentity(path), let input = inputs.first(where: { FileIdentity($0) == identity }) {
            throw ImageFileError(path: path, reason: "the output would overwrite the input \(QuotedValue.shown(input))")
        }
        var resolved = path
        var status = stat()
        if !replacing, PathBytes.withCString(path, { lstat($0, &status) }) == 0, (status.st_mode & S_IFMT) == S_IFLNK {
            guard let real = FileIO.realPath(path) else {
                throw ImageFileError(path: path, reason: "is a symbolic link to a missing file")
            }
            resolved = real
        }
        target = resolved
        var replacedMode: mode_t?
        if replacing {
            // lstat: the entry itself, which the rename in commit() replaces whatever it is.
            if PathBytes.withCString(path, { lstat($0, &status) }) == 0 {
                switch status.st_mode & S_IFMT {
                case S_IFDIR: throw ImageFileError(path: path, reason: "is a directory, not a file")
                case S_IFREG: replacedMode = status.st_mode & 0o7777
                default: break
                }
            } else if errno != ENOENT {
                throw ImageFileError(path: path, reason: "cannot write: \(FileIO.errorText(errno))")
            }
        } else if PathBytes.withCString(resolved, { stat($0, &status) }) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: replacedMode = status.st_mode & 0o7777
            case S_IFCHR where rule == .catalogue, S_IFIFO where rule == .catalogue:
                throw ImageFileError(path: path, reason: (status.st_mode & S_IFMT) == S_IFIFO
                    ? "is a FIFO: a catalogue's outputs are files (a row must not wait for a reader)"
                    : "is a device: a catalogue's outputs are files")
            case S_IFCHR, S_IFIFO:
                // Never renamed over: the device or pipe itself takes the bytes.
                (fd, inPlace, mode) = (PathBytes.withCString(resolved) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY) }, true, nil)
                if fd < 0 { throw ImageFileError(path: path, reason: "cannot write: \(FileIO.errorText(errno))") }
                return
            case S_IFDIR: throw ImageFileError(path: path, reason: "is a directory, not a file")
            default:
                throw ImageFileError(path: path, reason: "is a block device or a socket: Kira writes only regular files, character devices and pipes")
            }
        } else if errno != ENOENT {
            throw ImageFileError(path: path, reason: "cannot write: \(FileIO.errorText(errno))")
        }
        inPlace = false
        mode = replacedMode
        let directory = FileIO.parentDirectory(of: resolved)
        let name = PathBytes.bytes(String(resolved.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
        guard !name.isEmpty, name != Array(".".utf8), name != Array("..".utf8) else {
            throw ImageFileError(path: path, reason: "output path names a directory, not a file")
        }
        fd = -1
        if !forChildProcess, getenv("KIRA_NAMED_TEMPORARY_FILES") == nil {
            fd = PathBytes.withCString(directory) { kira_open_unnamed($0) }
        } else {
            errno = EOPNOTSUPP
        }
        if fd < 0 {
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(QuotedValue.shown(directory)): \(FileIO.errorText(code))")
            }
            // As mkstemp, but the name is remembered for removal on a signal before the file
            // exists under it (`kira_cleanup_begin_create`).
            kira_cleanup_begin_create()
            var created: [CChar]?
            var failure: Int32 = 0
            for _ in 0..<100 {
                let candidate = temporaryPath(Self.randomSuffix())
                slot = kira_cleanup_remember(candidate)
                fd = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                if fd >= 0 {
                    created = candidate
                    break
                }
                failure = errno
                kira_cleanup_forget(slot)
                slot = -1
                if failure != EEXIST { break }
            }
            kira_cleanup_end_create()
            guard let created else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(QuotedValue.shown(directory)): \(FileIO.errorText(failure))")
            }
            temporary = created
            // Created readable by its owner only, as mkstemp does; give it the usual mode.
            if mode == nil {
                let mask = umask(0)
                umask(mask)
                fchmod(fd, 0o666 & ~mask)
            }
        }
    }

    deinit { discard() }

    /// Gives the file up: what was written is removed (a device or FIFO is only closed), and the
    /// path stays as it was. Nothing happens after ``commit()`` or a discard before.
    package func discard() {
        if !committed {
            if fd >= 0 { close(fd) }
            fd = -1
            if let temporary { unlink(temporary) }
            temporary = nil
            committed = true  // nothing more to do, nor to write
        }
        kira_cleanup_forget(slot)
        slot = -1
    }

    /// Where a child process writes the bytes (see ``init(path:rule:inputs:forChildProcess:)``).
    package var childOutput: ChildOutput {
        if inPlace { return .descriptor(fd) }
        return .file(temporary.map { $0.withUnsafeBufferPointer { PathBytes.string(cString: $0.baseAddress!) } } ?? path)
    }

    /// The size of what was written so far (of a regular file; 0 for a device or FIFO).
    package var writtenSize: Int {
        var status = stat()
        guard !inPlace, fstat(fd, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }

    /// Whether the bytes go to a device or FIFO in place (nothing is renamed at the end).
    package var isInPlace: Bool { inPlace }

    /// Eight random letters and digits: with the process ID before them, a name no other file has.
    private static func randomSuffix() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<8).map { _ in alphabet.randomElement()! })
    }

    /// `DIR/.NAME.kira-PID-suffix`, NAME cut to fit the file-name limit (FileIO.temporaryNamePrefix).
    private func temporaryPath(_ suffix: String) -> [CChar] {
        let directory = PathBytes.bytes(FileIO.parentDirectory(of: target))
        let name = PathBytes.bytes(String(target.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
        return (directory + Array("/".utf8) + FileIO.temporaryNamePrefix(name) + Array(suffix.utf8) + [0])
            .map { CChar(bitPattern: $0) }
    }

    /// Appends `bytes` to the file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(ImageFileError) {
        precondition(!committed, "write after commit")
        if let reason = FileIO.writeAll(bytes, to: fd) {
            throw ImageFileError(path: FileIO.displayName(path, output: true), reason: "cannot write: \(reason)")
        }
    }

    /// Appends `bytes` to the file.
    package func write(_ bytes: [UInt8]) throws(ImageFileError) {
        var failure: ImageFileError?
        bytes.withUnsafeBytes { buffer in
            do throws(ImageFileError) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Puts the finished file in place at ``path``, replacing what was there: flushed to the
    /// disk first (whole or none across a power loss too), then linked under its name (a new
    /// file) or renamed over the old one, and the directory flushed.
    package func commit() throws(ImageFileError) {
        precondition(!committed, "commit twice")
        var failure: String?
        if inPlace {
            if close(fd) != 0 { failure = FileIO.errorText(errno) }
            fd = -1
            committed = true
            if let failure { throw ImageFileError(path: FileIO.displayName(path, output: true), reason: "cannot write: \(failure)") }
            return
        }
        if let mode, fchmod(fd, mode) != 0 { failure = FileIO.errorText(errno) }
        if failure == nil, fsync(fd) != 0 { failure = FileIO.errorText(errno) }
        var linkedInPlace = false
        if failure == nil, temporary == nil {
            // A new file takes its name directly: no temporary name at all.
            if mode == nil, PathBytes.withCString(target, { kira_name_unnamed(fd, $0) }) == 0 {
                linkedInPlace = true
            } else if mode == nil, errno != EEXIST {
                failure = FileIO.errorText(errno)
            } else {
                // The name is remembered before the file has it (`kira_cleanup_begin_create`).
                kira_cleanup_begin_create()
                for attempt in 0...100 {
                    let candidate = temporaryPath(String(attempt))
                    slot = kira_cleanup_remember(candidate)
                    if kira_name_unnamed(fd, candidate) == 0 {
                        temporary = candidate
                        break
                    }
                    let code = errno
                    kira_cleanup_forget(slot)
                    slot = -1
                    if code != EEXIST || attempt == 100 {
                        failure = FileIO.errorText(code)
                        break
                    }
                }
                kira_cleanup_end_create()
            }
        }
        if close(fd) != 0, failure == nil { failure = FileIO.errorText(errno) }
        fd = -1
        if failure == nil, !linkedInPlace, let temporary,
           PathBytes.withCString(target, { rename(temporary, $0) }) != 0 {
            failure = FileIO.errorText(errno)
        }
        if let failure {
            if let temporary { unlink(temporary) }
            temporary = nil
            throw ImageFileError(path: path, reason: "cannot write: \(failure)")
        }
        committed = true
        kira_cleanup_forget(slot)
        slot = -1
        FileIO.syncDirectory(FileIO.parentDirectory(of: target))
    }
}
