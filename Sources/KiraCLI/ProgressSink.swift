import Kira

/// Moves the progress bar as each frame is delivered, and ends its line after the last.
final class ProgressSink<Channel: LaneChannel>: FrameSink {
    private var bar: ProgressBar

    init(_ bar: ProgressBar) { self.bar = bar }

    func makeEncoder() -> FrameEncoder<Channel, Void> { { _, _, _ in } }

    func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: Void) throws { bar.update(index + 1) }

    func finish() throws { bar.finish() }
}
