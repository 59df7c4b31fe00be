import CKiraFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `write` inside `AtomicOutputFile` would name its own method.
private func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// A file written piece by piece that appears under its name whole, or not at all: the streaming
/// form of ``FileIO/writeAtomically(_:to:)``, for output too large to assemble in memory first
/// (an animated PNG).
///
/// The pieces go to an unnamed file in the target's directory (Linux `O_TMPFILE`); ``commit()``
/// names it and renames it over the path. Where unnamed files are not supported, a named
/// temporary file in the same directory is used instead. Until ``commit()`` succeeds the path is
/// untouched, and a writer released without it (an error, a throw elsewhere) removes what it
/// wrote.
package final class AtomicOutputFile {
    /// The path the file will have.
    package let path: String
    private var fd: Int32
    private var temporary: String?  // the file's name before the rename, once it has one
    private let temporaryBase: String
    private var committed = false

    /// Starts a new file that ``commit()`` will place at `path`.
    ///
    /// - Throws: ``ImageFileError`` when `path` names a directory or its directory cannot take
    ///   a new file.
    package init(path: String) throws(ImageFileError) {
        self.path = path
        let directory = FileIO.parentDirectory(of: path)
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        guard !name.isEmpty, name != ".", name != ".." else {
            throw ImageFileError(path: path, reason: "output path names a directory, not a file")
        }
        if FileIO.isDirectory(path) { throw ImageFileError(path: path, reason: "is a directory, not a file") }
        temporaryBase = "\(directory)/.\(name).kira-\(getpid())"
        fd = kira_open_unnamed(directory)
        if fd < 0 {
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(directory): \(FileIO.errorText(code))")
            }
            var template = Array("\(temporaryBase)-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else {
                throw ImageFileError(path: path, reason: "cannot create a file in \(directory): \(FileIO.errorText(errno))")
            }
            temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            // mkstemp creates the file readable by its owner only; give it the usual mode.
            let mask = umask(0)
            umask(mask)
            fchmod(fd, 0o666 & ~mask)
        }
    }

    deinit {
        if !committed {
            if fd >= 0 { close(fd) }
            if let temporary { unlink(temporary) }
        }
    }

    /// Appends `bytes` to the file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(ImageFileError) {
        precondition(!committed, "write after commit")
        var written = 0
        while written < bytes.count {
            let n = writeBytes(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                throw ImageFileError(path: path, reason: "cannot write: \(FileIO.errorText(errno))")
            }
            written += n
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

    /// Puts the finished file in place at ``path``, replacing what was there.
    package func commit() throws(ImageFileError) {
        precondition(!committed, "commit twice")
        var failure: String?
        if temporary == nil {
            // Name the finished file, then move it into place.
            for attempt in 0...100 {
                let candidate = "\(temporaryBase)-\(attempt)"
                if kira_name_unnamed(fd, candidate) == 0 {
                    temporary = candidate
                    break
                }
                if errno != EEXIST || attempt == 100 {
                    failure = FileIO.errorText(errno)
                    break
                }
            }
        }
        if close(fd) != 0, failure == nil { failure = FileIO.errorText(errno) }
        fd = -1
        if failure == nil, let temporary, rename(temporary, path) != 0 { failure = FileIO.errorText(errno) }
        if let failure {
            if let temporary { unlink(temporary) }
            temporary = nil
            throw ImageFileError(path: path, reason: "cannot write: \(failure)")
        }
        committed = true
    }
}
