import CKiraProcess
import Dispatch
import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a video by running the `ffmpeg` program and handing it raw RGBA frames on a pipe.
///
/// ffmpeg writes to a temporary file in the target directory, which is renamed over `path`
/// only when ffmpeg has exited with status 0, reported no write error, and left a non-empty file
/// that reached the disk: a failed or interrupted encode leaves no file, and a file already at
/// `path` keeps its bytes. (ffmpeg 5 exits 0 when writing the trailer fails, e.g. on a full
/// disk, unless given `-xerror`; the checks after it cover versions and programs that still do.)
///
/// Paths are byte strings carried through ``/KiraImage/PathBytes``: every system call and ffmpeg's own
/// argument get the bytes given, so a name that is not UTF-8 is written under that very name.
/// Frames are written to the pipe by a thread of the encoder's own, a few frames behind
/// ``append(_:)``, so the caller renders the next frames while ffmpeg encodes.
///
/// While the encoder is open, SIGINT, SIGTERM and SIGHUP (at their default dispositions) kill
/// ffmpeg and remove the temporary file before the process dies of the signal. A process
/// killed with SIGKILL cannot clean up: ffmpeg then reads the end of its input and exits, and
/// the temporary file (`.NAME.kira-PID-XXXXXX`) stays.
public final class VideoEncoder {
    /// The video's path, as given.
    public let path: String
    public let format: VideoFormat
    public let settings: VideoSettings
    private let temporaryPath: String
    private let process: ChildProcess
    private let queue: FrameQueue
    private let writer: IOThread
    private let guardSlot: Int32
    private var open = true

    /// ffmpeg's process ID, while it runs.
    var processID: pid_t { process.pid }

    /// Frames waiting for the pipe: enough to ride out ffmpeg's uneven pace, few enough to keep
    /// memory bounded (three canvases).
    static let queuedFrames = 3

    /// Starts ffmpeg for a video at `path`, in the format its extension names.
    ///
    /// - Parameters:
    ///   - path: the video file to write, replaced atomically when ffmpeg succeeds.
    ///   - settings: the frames' size and rate and the encoding options.
    ///   - ffmpeg: the program, from ``FFmpegProgram/locate(explicit:)``.
    /// - Throws: ``VideoError`` for an unknown extension, a directory that cannot be written,
    ///   or an ffmpeg that cannot be started.
    public init(path: String, settings: VideoSettings, ffmpeg: String) throws(VideoError) {
        guard let format = VideoFormat(path: path) else { throw .unknownFormat(path: path) }
        self.path = path
        self.format = format
        self.settings = settings
        temporaryPath = try Self.reserveTemporaryFile(beside: path)
        do {
            process = try ChildProcess(executable: ffmpeg,
                                       arguments: format.ffmpegArguments(settings, output: temporaryPath))
        } catch {
            Self.remove(temporaryPath)
            throw error
        }
        let processID = process.pid
        guardSlot = PathBytes.withCString(temporaryPath) { kira_guard_child(processID, $0) }
        let queue = FrameQueue(capacity: Self.queuedFrames)
        self.queue = queue
        let process = self.process
        do {
            writer = try IOThread {
                while let frame = queue.next() {
                    let written = frame.channels.withUnsafeBytes { process.write($0) }
                    if !written { queue.fail() }
                }
            }
        } catch {
            process.kill()
            kira_guard_child_exited(guardSlot)
            Self.remove(temporaryPath)
            kira_unguard_child(guardSlot)
            throw error
        }
    }

    /// Queues the next frame (8-bit RGBA of the video's size); returns once it is queued.
    ///
    /// - Throws: ``VideoError/ffmpegFailed(path:status:lastLines:)`` when ffmpeg has stopped
    ///   reading (it failed); the encoder is then closed and nothing is written.
    public func append(_ frame: RGBAImage<UInt8>) throws(VideoError) {
        guard open else { throw .closed }
        guard frame.width == settings.width, frame.height == settings.height else {
            throw .frameSize(expected: "\(settings.width)×\(settings.height)", got: "\(frame.width)×\(frame.height)")
        }
        if !queue.push(frame) { try finish() }
    }

    /// Ends the input, waits for ffmpeg, and moves the video into place.
    ///
    /// - Throws: ``VideoError/ffmpegFailed(path:status:lastLines:)`` if ffmpeg did not exit with
    ///   status 0 or said it could not write, ``VideoError/ffmpegWroteNothing(path:)`` for an
    ///   empty file; no file is then left beside `path`, and whatever was at `path` stays.
    public func finish() throws(VideoError) {
        guard open else { throw .closed }
        open = false
        queue.close()
        writer.join()
        let status = process.wait()
        // Until the file is in place, a signal still removes it (but no longer kills a process).
        kira_guard_child_exited(guardSlot)
        defer { kira_unguard_child(guardSlot) }
        let lines = process.lastErrorLines
        guard ChildProcess.succeeded(status), !queue.failed else {
            Self.remove(temporaryPath)
            throw .ffmpegFailed(path: path, status: ChildProcess.describe(status), lastLines: lines)
        }
        // An exit status of 0 is not proof of a whole file: the output's trailer can fail to be
        // written (a full disk) while ffmpeg still exits 0, and a stand-in program may write nothing.
        guard !lines.contains(where: Self.reportsWriteError) else {
            Self.remove(temporaryPath)
            throw .ffmpegFailed(path: path, status: "exited with status 0 but could not write the video", lastLines: lines)
        }
        do throws(VideoError) {
            try Self.checkWritten(temporaryPath, path: path)
        } catch {
            Self.remove(temporaryPath)
            throw error
        }
        let moved = PathBytes.withCString(temporaryPath) { from in PathBytes.withCString(path) { to in rename(from, to) } }
        guard moved == 0 else {
            let code = errno
            Self.remove(temporaryPath)
            throw .system("\(path): cannot move the video into place", code)
        }
    }

    /// Whether a line of ffmpeg's standard error says the output could not be written. Matched on
    /// the words ffmpeg and the C library use (ffmpeg prints only errors here, but not every
    /// error is about the output, so any line at all would be too strict).
    static func reportsWriteError(_ line: String) -> Bool {
        ["Error writing trailer", "Error closing file", "No space left on device", "Disk quota exceeded",
         "File too large", "Input/output error"].contains { line.contains($0) }
    }

    /// Refuses an empty file (ffmpeg wrote nothing: a video always has a header), and flushes
    /// the file to the disk before it replaces anything: a file system may report a full disk
    /// only at `fsync` (delayed allocation), and a crash after the rename must not leave an
    /// empty file where the old one was.
    private static func checkWritten(_ temporaryPath: String, path: String) throws(VideoError) {
        let fd = PathBytes.withCString(temporaryPath) { Glibc.open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw .system("\(path): cannot open the video ffmpeg wrote", errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .system("\(path): cannot read the video ffmpeg wrote", errno) }
        guard status.st_size > 0 else { throw .ffmpegWroteNothing(path: path) }
        guard fsync(fd) == 0 else { throw .system("\(path): cannot write the video", errno) }
    }

    /// Removes `path` (the temporary file), by the bytes it stands for.
    private static func remove(_ path: String) {
        _ = PathBytes.withCString(path) { unlink($0) }
    }

    /// Stops ffmpeg and removes the temporary file; nothing is written. Safe to call at any time.
    public func cancel() {
        guard open else { return }
        open = false
        process.sendKill()  // a write blocked on the full pipe now fails and the writer stops
        queue.close()
        writer.join()
        process.wait()
        kira_guard_child_exited(guardSlot)
        Self.remove(temporaryPath)
        kira_unguard_child(guardSlot)
    }

    deinit { cancel() }

    /// Creates an empty file with a fresh name in `path`'s directory for ffmpeg to overwrite:
    /// the name is ours, and a directory that cannot be written fails here, before any frame.
    private static func reserveTemporaryFile(beside path: String) throws(VideoError) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        // The name's bytes, not its UTF-8: a byte that is not UTF-8 stays that byte (PathBytes).
        var template = (PathBytes.bytes("\(directory)/.\(name).kira-\(getpid())-XXXXXX") + [0]).map { CChar(bitPattern: $0) }
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .system("\(path): cannot create a file in \(directory)", errno) }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        close(fd)
        return template.withUnsafeBufferPointer { PathBytes.string(cString: $0.baseAddress!) }
    }
}

/// A bounded first-in first-out queue of frames between the caller and the pipe writer.
private final class FrameQueue: @unchecked Sendable {
    private var frames: [RGBAImage<UInt8>] = []
    private var closed = false
    private(set) var failedFlag = false
    private let capacity: Int
    // Allocated: a pthread object must not move, and a stored property's address is not stable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    var failed: Bool { locked { failedFlag } }

    /// Adds a frame, waiting while the queue is full; false once the writer has failed.
    func push(_ frame: RGBAImage<UInt8>) -> Bool {
        locked {
            while frames.count >= capacity, !failedFlag, !closed { pthread_cond_wait(changed, mutex) }
            if failedFlag || closed { return false }
            frames.append(frame)
            pthread_cond_broadcast(changed)
            return true
        }
    }

    /// The next frame, waiting for one; nil once closed and empty, or failed.
    func next() -> RGBAImage<UInt8>? {
        locked {
            while frames.isEmpty, !closed, !failedFlag { pthread_cond_wait(changed, mutex) }
            if failedFlag || frames.isEmpty { return nil }
            let frame = frames.removeFirst()
            pthread_cond_broadcast(changed)
            return frame
        }
    }

    /// No more frames will come.
    func close() {
        locked {
            closed = true
            pthread_cond_broadcast(changed)
        }
    }

    /// The writer could not write: drop what is queued and refuse more.
    func fail() {
        locked {
            failedFlag = true
            frames.removeAll()
            pthread_cond_broadcast(changed)
        }
    }
}
