/// `kira bench`'s progress on a terminal: one bar per path, each ended when the next starts.
final class BenchProgress {
    private var bar: ProgressBar?

    func start(_ label: String, frames: Int) {
        bar?.finish()
        bar = ProgressBar(total: frames, label: label, quiet: false)
        bar?.update(0)
    }

    func update(_ done: Int) { bar?.update(done) }

    func finish() {
        bar?.finish()
        bar = nil
    }
}
