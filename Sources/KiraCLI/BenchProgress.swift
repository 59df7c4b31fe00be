import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kira bench`'s progress: on a terminal, one bar per path, each ended when the next starts;
/// into a log (stderr not a terminal), a line every ``logInterval`` while a path runs, so that a
/// long run still says how far it is and a short one adds nothing to its plan line.
final class BenchProgress {
    /// Seconds between a path's progress lines in a log.
    static let logInterval: UInt64 = 10
    private let terminal = isatty(2) != 0
    private var bar: ProgressBar?
    private var label = ""
    private var total = 0
    private var lastLine: UInt64 = 0

    func start(_ label: String, frames: Int) {
        finish()
        self.label = label
        total = frames
        if terminal {
            bar = ProgressBar(total: frames, label: label, quiet: false)
            bar?.update(0)
        } else {
            lastLine = DispatchTime.now().uptimeNanoseconds
        }
    }

    func update(_ done: Int) {
        if terminal {
            bar?.update(done)
            return
        }
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastLine >= Self.logInterval * 1_000_000_000, done < total else { return }
        lastLine = now
        writeToStandardError("\(label) \(done)/\(total) frames\n")
    }

    func finish() {
        bar?.finish()
        bar = nil
    }
}
