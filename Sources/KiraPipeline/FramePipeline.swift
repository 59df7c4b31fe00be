import Dispatch
import KiraImage
import KiraLaneJobs
import KiraRender

/// Renders frames and hands each one to sinks (``FrameSink``) in order, keeping every core busy:
/// frames are rendered in batches (one shading sweep per batch, see
/// ``/KiraRender/FrameRenderer``'s batch `render(_:into:)`), and while the next batch renders, the
/// sinks' encoders work on the frames of the batches before on other threads.
///
/// It is the one path from scenes to outputs: an animation gives it every frame
/// (``render(_:to:)``); a catalogue streams batch after batch of different cards into one
/// ``FrameStream`` (``stream(to:)``). The frames are exactly those of rendering each scene alone;
/// only the schedule differs.
public final class FramePipeline {
    public let frameRenderer: FrameRenderer
    /// Frames per batch for ``render(_:to:)``: more shares more shading work, costs more memory (a
    /// canvas per frame for the batch that renders and for each of the ``encodingBatches`` that
    /// encode meanwhile). The default, 2: shading is a small part of a frame once the projection
    /// is in lanes; `kira animate --apng` of 129 2340×3170 frames took the same CPU time with
    /// batches of 2 and 3 (5.9–6.4 s and 5.9–6.0 s of user CPU, three runs each, 2 cores).
    public let batchSize: Int
    /// The batch size that `kira animate` uses when the memory budget allows it.
    public static let defaultBatchSize = 2
    /// Batches encoding while the next one renders. With one, the renderer waited for the last
    /// frame of each batch while one core finished it (`kira animate --apng` kept two cores 86%
    /// busy); with two, 94–95%. Each costs a batch of canvases.
    public static let encodingBatches = 2

    public init(threads: Int = TileScheduler.processorCount, batchSize: Int = defaultBatchSize) {
        frameRenderer = FrameRenderer(threads: threads)
        self.batchSize = max(1, batchSize)
    }

    /// Renders `scenes` in batches of ``batchSize`` and gives every frame to every sink: to the
    /// sinks' encoders concurrently, off the calling thread, then to
    /// ``FrameSink/consume(_:index:encoded:)`` in order on the calling thread; then calls each
    /// sink's ``FrameSink/finish()``. Stops at the first error, from rendering, an encoder or a
    /// sink (and then finishes no sink).
    public func render<Out: LaneChannel>(_ scenes: [FrameScene], to sinks: [any FrameSink<Out>]) throws {
        let stream = stream(to: sinks)
        for start in stride(from: 0, to: scenes.count, by: batchSize) {
            try stream.submit(Array(scenes[start..<min(start + batchSize, scenes.count)]))
        }
        try stream.finish()
    }

    /// A stream of frames into `sinks`, batch by batch, on this pipeline's renderer.
    public func stream<Out: LaneChannel>(to sinks: [any FrameSink<Out>]) -> FrameStream<Out> {
        FrameStream(renderer: frameRenderer, sinks: sinks)
    }
}
