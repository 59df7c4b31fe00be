#if canImport(Glibc)
import Glibc
#endif
import CKiraFiles
import KiraTestSupport
import Testing
@testable import KiraFiles

/// FileIO's guarantees, in the library (the CLI's end-to-end cases are in BadInputTests).
@Suite struct FileSafetyTests {
    @Test func pathBytesRoundTrip() {
        var state: UInt32 = 99
        var samples: [[UInt8]] = [Array("plain.png".utf8), Array("bad-".utf8) + [0xFF] + Array(".png".utf8),
                                  Array("é€😀".utf8), [0xEF, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]]
        for _ in 0..<300 {
            samples.append((0..<Int(state % 12)).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24) | 1
            })
        }
        for bytes in samples {
            #expect(PathBytes.bytes(PathBytes.string(bytes: bytes)) == bytes, "\(bytes)")
        }
        #expect(PathBytes.string(bytes: Array("ok-é".utf8)) == "ok-é")  // valid UTF-8 is left alone
    }

    @Test func identityCatchesEveryName() throws {
        let directory = try TemporaryDirectory()
        let a = directory.path + "/a.png"
        try FileIO.writeAtomically([1, 2, 3], to: a)
        #expect(link(a, directory.path + "/hard.png") == 0)
        #expect(symlink("a.png", directory.path + "/soft.png") == 0)
        for other in ["hard.png", "soft.png", "./a.png"] {
            let path = other == "./a.png" ? directory.path + "/./a.png" : directory.path + "/" + other
            #expect(throws: ImageFileError.self) { try FileIO.checkDistinct(inputs: [a], outputs: [path]) }
        }
        // Two outputs not written yet, spelled differently.
        #expect(throws: ImageFileError.self) {
            try FileIO.checkDistinct(inputs: [], outputs: [directory.path + "/new.png", directory.path + "//new.png"])
        }
        try FileIO.checkDistinct(inputs: [a, "-"], outputs: [directory.path + "/b.png", "-", "/dev/null", "/dev/null"])
        #expect(throws: ImageFileError.self) { try FileIO.checkDistinct(inputs: ["-", "-"], outputs: []) }
    }

    @Test func symbolicLinkToNothingIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(symlink("missing.png", directory.path + "/dangling.png") == 0)
        #expect(throws: ImageFileError.self) { try FileIO.writeAtomically([1], to: directory.path + "/dangling.png") }
        #expect(directory.contents() == ["dangling.png"])
    }

    @Test func temporaryNamesFitNameMax() {
        for length in [1, 200, 241, 255] {
            let prefix = FileIO.temporaryNamePrefix(Array(repeating: UInt8(ascii: "x"), count: length))
            #expect(prefix.count + 6 <= FileIO.maxNameLength, "\(length)")
        }
    }

    @Test func makeDirectoryThatExistsIsSuccess() throws {
        let directory = try TemporaryDirectory()
        try FileIO.makeDirectory(directory.path + "/d")
        try FileIO.makeDirectory(directory.path + "/d")
        rmdir(directory.path + "/d")
        #expect(throws: ImageFileError.self) { try FileIO.makeDirectory(directory.path + "/no/such") }
    }

    @Test func makeDirectoriesCreatesParentsAndStopsAtAFile() throws {
        let directory = try TemporaryDirectory()
        try FileIO.makeDirectories(directory.path + "/a/b//c/")
        #expect(FileIO.isDirectory(directory.path + "/a/b/c"))
        try FileIO.makeDirectories(directory.path + "/a/b/c")  // all there: success
        close(open(directory.path + "/file", O_CREAT | O_WRONLY, 0o644))
        #expect(throws: ImageFileError.self) { try FileIO.makeDirectories(directory.path + "/file/d") }
        #expect(FileIO.parentDirectory(of: "card.png") == ".")
        #expect(FileIO.parentDirectory(of: "/card.png") == "/")
        #expect(FileIO.parentDirectory(of: "out/cards/card.png") == "out/cards")
    }

    /// The termination handler removes a remembered temporary file, and the process still ends
    /// by the signal. Run in a child process: after fork only async-signal-safe C is called.
    /// Not under ThreadSanitizer: in a child forked from the multi-threaded test runner its
    /// runtime never hands the raised signal to the handler (the child exits normally). The CLI's
    /// kill tests, which signal a freshly started `kira`, cover the same handler under TSan too.
    @Test(.disabled(if: runningUnderThreadSanitizer, "TSan does not deliver signals in a forked child"),
          arguments: [SIGTERM, SIGINT, SIGHUP])
    func terminationRemovesTemporaryFiles(signal: Int32) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/.x.png.kira-1-0"
        try FileIO.writeAtomically([1], to: path)
        let cPath = Array(path.utf8CString)
        let child = cPath.withUnsafeBufferPointer { buffer -> pid_t in
            let pid = fork()
            if pid == 0 {
                // The test runner's threads may block the signal; a pipeline's parent may too
                // (the CLI unblocks it, see KiraCommand).
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, signal)
                sigprocmask(SIG_UNBLOCK, &set, nil)
                Glibc.signal(signal, SIG_DFL)
                // Not the entries of tests running beside this one (an ffmpeg, their files).
                kira_cleanup_forget_all()
                kira_cleanup_install()
                _ = kira_cleanup_remember(buffer.baseAddress!)
                raise(signal)
                _exit(0)
            }
            return pid
        }
        #expect(child > 0)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        #expect(status & 0x7F == signal, "ended by the signal, status \(status)")
        #expect(directory.contents().isEmpty, "left \(directory.contents())")
    }

    /// A stream (here a pipe) is read to its end, not as an empty file.
    @Test func readsPipes() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let payload = [UInt8](repeating: 7, count: 200_000)
        let writer = fds[1]
        let thread = Thread { _ = FileIO.writeAll(payload, to: writer); close(writer) }
        thread.start()
        let bytes = try FileIO.read("/proc/self/fd/\(fds[0])")
        close(fds[0])
        #expect(bytes == payload)
    }

}

/// A thread for a test (Foundation's is not imported here).
private final class Thread: @unchecked Sendable {
    private let body: () -> Void
    private var handle = pthread_t()
    init(_ body: @escaping () -> Void) { self.body = body }
    func start() {
        let box = Unmanaged.passRetained(self)
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, box.toOpaque())
        pthread_detach(handle)
    }
}

/// Whether this process runs with ThreadSanitizer's runtime (its entry point is then linked in).
private let runningUnderThreadSanitizer = dlsym(nil, "__tsan_init") != nil

/// One cleanup registry: temporary files and child processes, emptied on request as by a signal.
@Suite struct CleanupRegistryTests {
    /// Made before any fork: a forked child of this threaded process may call only
    /// async-signal-safe functions (no malloc).
    nonisolated(unsafe) static let sleeperArguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]

    /// A `sleep 30` of this process's own, to be registered in a forked child.
    static func startSleeper() -> pid_t {
        _ = sleeperArguments
        let pid = fork()
        if pid == 0 {
            execv("/bin/sleep", sleeperArguments)
            _exit(127)
        }
        return pid
    }

    /// Whether `sleeper` was killed (SIGKILL) within five seconds; it is killed and reaped anyway.
    static func wasKilled(_ sleeper: pid_t) -> Bool {
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(sleeper, &status, WNOHANG) == sleeper { return status & 0x7F == SIGKILL }
            usleep(10_000)
        }
        kill(sleeper, SIGKILL)
        waitpid(sleeper, &status, 0)
        return false
    }

    /// Runs `body` in a forked child; how it ended.
    static func inChild(_ body: () -> Void) -> Int32 {
        let child = fork()
        if child == 0 {
            // Not the entries of tests running beside this one (an ffmpeg, their files).
            kira_cleanup_forget_all()
            body()
            _exit(0)
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        return status
    }

    // A signal empties the registry too: kira killed while ffmpeg encodes leaves neither ffmpeg
    // nor a file (VideoCommandTests.interruptedEncodeLeavesNoFileAndNoFFmpeg), and a killed write
    // no temporary file (FileSafetyTests.terminationRemovesTemporaryFiles).

    /// Without handlers (a server shutting down its own way), on request.
    @Test func cleanUpNowWithoutASignal() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/.y.png.kira-1-0"
        try FileIO.writeAtomically([1], to: path)
        let cPath = strdup(path)!
        defer { free(cPath) }
        let sleeper = Self.startSleeper()
        let status = Self.inChild {
            _ = kira_cleanup_remember_child(sleeper)
            _ = kira_cleanup_remember(cPath)
            TerminationCleanup.cleanUpNow()
        }
        #expect(status == 0)
        #expect(Self.wasKilled(sleeper))
        #expect(directory.contents().isEmpty, "left \(directory.contents())")
    }

    /// `kira_cleanup_forget_all`, which a forked child calls first (`inChild` does), is what
    /// keeps its clean-up off its parent's entries: tests fork while others beside them run an
    /// ffmpeg or write a file. (Fails if forgetting all leaves an entry.)
    @Test func forkedChildLeavesItsParentsEntries() throws {
        let sleeper = Self.startSleeper()
        let slot = kira_cleanup_remember_child(sleeper)
        #expect(slot >= 0)
        let status = Self.inChild { TerminationCleanup.cleanUpNow() }
        kira_cleanup_forget(slot)
        #expect(status == 0)
        // A kill would have been sent before the child exited: give it a fifth of a second to land.
        var exit: Int32 = 0, ended: pid_t = 0
        for _ in 0..<20 where ended == 0 {
            ended = waitpid(sleeper, &exit, WNOHANG)
            usleep(10_000)
        }
        if ended == 0 {
            kill(sleeper, SIGKILL)
            waitpid(sleeper, &exit, 0)
        }
        #expect(ended == 0, "the parent's child was ended (status \(exit))")
    }
}
