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

/// A program started with its standard input on a pipe that we write, and its standard error
/// collected (the last few kilobytes are kept for error messages); standard output is discarded,
/// or goes to a descriptor given (a device or FIFO the program writes in place).
///
/// Started with `posix_spawn`: every descriptor Kira opens is close-on-exec, so the child holds
/// only its own ends of the two pipes, and the write end of its input closes when we close it or
/// when Kira dies — the child then sees the end of its input and cannot hang on.
final class ChildProcess: @unchecked Sendable {
    let pid: pid_t
    private var input: Int32
    private let errorOutput: ErrorTail
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments` (not including the program name), its standard output
    /// on `standardOutput` (else `/dev/null`).
    ///
    /// The program's path and every argument reach the child as the bytes they stand for
    /// (``/KiraFiles/PathBytes``): an output path with a byte that is not UTF-8 names that byte, not the
    /// private-use character Kira carries it as.
    init(executable: String, arguments: [String], standardOutput: Int32? = nil) throws(VideoError) {
        var inputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard kira_pipe(&inputPipe) == 0 else { throw .system("cannot create a pipe", errno) }
        guard kira_pipe(&errorPipe) == 0 else {
            let code = errno
            close(inputPipe[0]); close(inputPipe[1])
            throw .system("cannot create a pipe", code)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies; the originals close at exec.
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        // The child starts with no signal blocked and SIGPIPE, SIGINT, SIGTERM at their defaults,
        // whatever the thread that spawns it blocks or Kira ignores.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { PathBytes.withCString($0) { strdup($0) } } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, argv[0]!, &actions, &attributes, argv, environ)
        close(inputPipe[0])
        close(errorPipe[1])
        guard result == 0 else {
            close(inputPipe[1])
            close(errorPipe[0])
            throw .system("cannot start \(executable)", result)
        }
        pid = child
        input = inputPipe[1]
        do {
            errorOutput = try ErrorTail(descriptor: errorPipe[0])
        } catch {
            close(input)
            _ = Glibc.kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            close(errorPipe[0])
            throw error
        }
    }

    /// Writes all of `bytes` to the child's standard input. A child that has stopped reading
    /// (it exited, or failed) gives `false`, never a SIGPIPE: the signal is blocked on this
    /// thread for the write and a pending one is taken back before it is unblocked.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard input >= 0 else { return false }
        var pipeSignal = sigset_t(), previous = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(input, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    // Consume the SIGPIPE this write raised, unless one was already pending.
                    var pending = sigset_t()
                    sigpending(&pending)
                    if sigismember(&previous, SIGPIPE) == 0, sigismember(&pending, SIGPIPE) == 1 {
                        var zero = timespec(tv_sec: 0, tv_nsec: 0)
                        sigtimedwait(&pipeSignal, nil, &zero)
                    }
                }
                return false
            }
            offset += n
        }
        return true
    }

    /// Closes the child's standard input: it sees the end of its input.
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// Waits for the child to exit; its raw wait status (see `describe`).
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        closeInput()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { status = -1; break }
        }
        exitStatus = status
        errorOutput.waitForEnd()
        return status
    }

    /// Stops the child at once (SIGKILL), without waiting for it.
    func sendKill() {
        if exitStatus == nil { _ = Glibc.kill(pid, SIGKILL) }
    }

    /// Stops the child at once and waits for it.
    func kill() {
        sendKill()
        wait()
    }

    /// The end of what the child wrote on its standard error, as lines.
    var lastErrorLines: [String] { errorOutput.lines }

    /// "exited with status 1", "was killed by signal 9".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        if signal == 0 { return "exited with status \((status >> 8) & 0xff)" }
        return "was killed by signal \(signal)"
    }

    static func succeeded(_ status: Int32) -> Bool { status == 0 }

    deinit {
        kill()
    }
}

/// Reads a descriptor to its end on a thread of its own, keeping the last 8 KiB.
private final class ErrorTail: @unchecked Sendable {
    private static let capacity = 8192
    private var tail: [UInt8] = []
    private let lock = DispatchSemaphore(value: 1)
    private var reader: IOThread?

    init(descriptor: Int32) throws(VideoError) {
        reader = try IOThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                lock.wait()
                tail.append(contentsOf: buffer[0..<n])
                if tail.count > Self.capacity { tail.removeFirst(tail.count - Self.capacity) }
                lock.signal()
            }
            close(descriptor)
        }
    }

    func waitForEnd() {
        reader?.join()
    }

    var lines: [String] {
        lock.wait()
        defer { lock.signal() }
        return String(decoding: tail, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
