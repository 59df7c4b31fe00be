#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// A FIFO with no writer, for tests of inputs that must be refused without being waited on.
public enum FIFO {
    /// Makes a FIFO at `path`.
    public static func make(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw TemporaryDirectory.Failure() }
    }

    /// The seconds `work` took, on a thread of its own; when it is still running after `seconds`
    /// (blocked opening or reading the FIFO at `path`), writers open the FIFO and close it at
    /// once, which ends each wait with an empty read, so that a test of a hang fails rather than
    /// hangs.
    public static func timing(unblocking path: String, after seconds: Double = 5, _ work: @escaping @Sendable () -> Void) -> Double {
        let done = DispatchSemaphore(value: 0)
        let start = DispatchTime.now().uptimeNanoseconds
        Thread {
            work()
            done.signal()
        }.start()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            // Each time a reader waits on the FIFO, a writer comes and goes (without blocking:
            // with no reader waiting the open fails), until the work is done.
            repeat {
                let writer = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK)
                if writer >= 0 { close(writer) }
            } while done.wait(timeout: .now() + 0.1) == .timedOut
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
