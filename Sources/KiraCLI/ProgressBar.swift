import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (silent when piped or
/// with `--quiet`) and redrawn at most ten times a second.
struct ProgressBar {
    let total: Int
    let label: String
    let enabled: Bool
    private var lastDraw: UInt64 = 0
    private let start = DispatchTime.now().uptimeNanoseconds

    init(total: Int, label: String, quiet: Bool) {
        self.total = max(1, total)
        self.label = label
        enabled = !quiet && isatty(2) != 0
    }

    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done >= total || now - lastDraw >= 100_000_000 else { return }
        lastDraw = now
        let width = 30
        let filled = width * min(done, total) / total
        let seconds = Double(now - start) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        writeToStandardError("\r\(label) \(bar) \(done)/\(total)  \(formatted(rate, digits: 1)) frames/s ")
    }

    /// Ends the line the bar was drawn on.
    func finish() {
        if enabled { writeToStandardError("\n") }
    }
}
