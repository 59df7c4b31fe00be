import CKiraFiles
import Dispatch
import KiraFiles
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
/// The output opens through Kira's one door for outputs (``/KiraFiles/OutputRule/userNamed``, as `-o` and
/// `--apng`): a symbolic link is written through and a link to nothing refused; a character
/// device or a FIFO is written in place (it is ffmpeg's standard output); anything else goes to
/// a temporary file in the target directory, which is renamed over the target only when ffmpeg
/// has exited with status 0, reported no write error, and left a non-empty file that reached the
/// disk: a failed or interrupted encode leaves no file, and a file already there keeps its bytes.
/// (ffmpeg 5 exits 0 when writing the trailer fails, e.g. on a full disk, unless given
/// `-xerror`; the checks after it cover versions and programs that still do.)
///
/// Paths are byte strings carried through ``/KiraFiles/PathBytes``: every system call and ffmpeg's own
/// argument get the bytes given, so a name that is not UTF-8 is written under that very name.
/// Frames are written to the pipe by a thread of the encoder's own, a few frames behind
/// ``append(_:)``, so the caller renders the next frames while ffmpeg encodes.
///
/// While the encoder is open, ffmpeg and the temporary file are in the cleanup registry: once
/// ``/KiraFiles/TerminationCleanup/installSignalHandlers()`` was called, SIGINT, SIGTERM and SIGHUP kill
/// ffmpeg and remove the temporary file before the process dies of the signal. A process
/// killed with SIGKILL cannot clean up: ffmpeg then reads the end of its input and exits, and
/// the temporary file (`.NAME.kira-PID-XXXXXX`) stays.
public final class VideoEncoder {
    /// The video's path, as given.
    public let path: String
    public let format: VideoFormat
    public let settings: VideoSettings
    private let file: AtomicOutputFile
    private let process: ChildProcess
    private let queue: FrameQueue
    private let writer: IOThread
    private let guardSlot: Int32
    private var open = true

    /// ffmpeg's process ID, while it runs.
    var processID: pid_t { process.pid }

    /// Frames waiting for the pipe: enough to ride out ffmpeg's uneven pace, few enough to keep
    /// memory bounded (three canvases).
    public static let queuedFrames = 3

    /// Starts ffmpeg for a video at `path`, in the format its extension names.
    ///
    /// - Parameters:
    ///   - path: the video file to write, replaced atomically when ffmpeg succeeds.
    ///   - settings: the frames' size and rate and the encoding options.
    ///   - ffmpeg: the program, from ``FFmpegProgram/locate(explicit:)``.
    ///   - inputs: files the command reads: a video that is one of them is refused.
    /// - Throws: ``VideoError`` for an unknown extension, a rate the format cannot play, an output
    ///   the door refuses (a directory, a link to nothing, an input), a directory that cannot be
    ///   written, or an ffmpeg that cannot be started.
    public init(path: String, settings: VideoSettings, ffmpeg: String, inputs: [String] = []) throws(VideoError) {
        guard let format = VideoFormat(path: path) else { throw .unknownFormat(path: path) }
        try format.check(framesPerSecond: settings.framesPerSecond)
        self.path = path
        self.format = format
        self.settings = settings
        do {
            file = try AtomicOutputFile(path: path, inputs: inputs, forChildProcess: true)
        } catch {
            throw .output(error)
        }
        let output: String, standardOutput: Int32?
        switch file.childOutput {
        case .file(let temporary): (output, standardOutput) = (temporary, nil)
        case .descriptor(let descriptor): (output, standardOutput) = ("pipe:1", descriptor)
        }
        process = try ChildProcess(executable: ffmpeg, arguments: format.ffmpegArguments(settings, output: output),
                                   standardOutput: standardOutput)
        guardSlot = kira_cleanup_remember_child(process.pid)
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
            kira_cleanup_child_exited(guardSlot)
            kira_cleanup_forget(guardSlot)
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
        kira_cleanup_child_exited(guardSlot)
        kira_cleanup_forget(guardSlot)
        do throws(VideoError) {
            let lines = process.lastErrorLines
            guard ChildProcess.succeeded(status), !queue.failed else {
                throw .ffmpegFailed(path: path, status: ChildProcess.describe(status), lastLines: lines)
            }
            // An exit status of 0 is not proof of a whole file: the output's trailer can fail to be
            // written (a full disk) while ffmpeg still exits 0, and a stand-in program may write nothing.
            guard !lines.contains(where: Self.reportsWriteError) else {
                throw .ffmpegFailed(path: path, status: "exited with status 0 but could not write the video", lastLines: lines)
            }
            guard file.isInPlace || file.writtenSize > 0 else { throw .ffmpegWroteNothing(path: path) }
            // Flushed to the disk before it replaces anything: a file system may report a full disk
            // only at `fsync` (delayed allocation), and a crash after the rename must not leave an
            // empty file where the old one was.
            do {
                try file.commit()
            } catch {
                throw .output(error)
            }
        } catch {
            file.discard()
            throw error
        }
    }

    /// Whether a line of ffmpeg's standard error says the output could not be written. Matched on
    /// the words ffmpeg and the C library use (ffmpeg prints only errors here, but not every
    /// error is about the output, so any line at all would be too strict).
    static func reportsWriteError(_ line: String) -> Bool {
        ["Error writing trailer", "Error closing file", "No space left on device", "Disk quota exceeded",
         "File too large", "Input/output error"].contains { line.contains($0) }
    }

    /// Stops ffmpeg and removes the temporary file; nothing is written. Safe to call at any time.
    public func cancel() {
        guard open else { return }
        open = false
        process.sendKill()  // a write blocked on the full pipe now fails and the writer stops
        queue.close()
        writer.join()
        process.wait()
        kira_cleanup_child_exited(guardSlot)
        kira_cleanup_forget(guardSlot)
        file.discard()
    }

    deinit { cancel() }

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
