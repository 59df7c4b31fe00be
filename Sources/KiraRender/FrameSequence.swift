import Dispatch
import KiraImage

/// Renders a sequence of frames and hands each one to sinks (``FrameSink``) in order, keeping
/// every core busy: frames are rendered in batches (one shading sweep per batch, see
/// ``FrameRenderer/render(_:into:)-(_,[RGBAImage<Out>])``), and while the next batch renders,
/// the sinks' encoders work on the frames of the last one on other threads.
///
/// The frames are exactly those of rendering each scene alone; only the schedule differs.
public final class FrameSequenceRenderer {
    public let frameRenderer: FrameRenderer
    /// Frames per batch: more shares more shading work, costs more memory (a canvas per frame
    /// for the batch that renders and for each of the ``encodingBatches`` that encode meanwhile).
    /// The default, 2: shading is a small part of a frame once the projection is in lanes;
    /// `kira animate --apng` of 129 2340×3170 frames took the same CPU time with batches of 2
    /// and 3 (5.9–6.4 s and 5.9–6.0 s of user CPU, three runs each side by side, load ~2).
    public let batchSize: Int
    /// The batch size that `kira animate` uses when the memory budget allows it.
    public static let defaultBatchSize = 2
    /// Batches encoding while the next one renders. With one, the renderer waited for the last
    /// frame of each batch to be encoded while one core finished it: `kira animate --apng` kept
    /// the two cores 86% busy (CPU time over twice the wall time), with two 94–95%. (Each costs a
    /// batch of canvases.)
    static let encodingBatches = 2

    public init(threads: Int = TileScheduler.processorCount, batchSize: Int = defaultBatchSize) {
        frameRenderer = FrameRenderer(threads: threads)
        self.batchSize = max(1, batchSize)
    }

    /// Renders `scenes` and gives every frame to every sink: to the sinks' encoders concurrently,
    /// off the calling thread, then to ``FrameSink/consume(_:index:encoded:)`` in order on the
    /// calling thread; then calls each sink's ``FrameSink/finish()``. Stops at the first error,
    /// from rendering, an encoder or a sink (and then finishes no sink).
    public func render<Out: LaneChannel>(_ scenes: [FrameScene], to sinks: [any FrameSink<Out>]) throws {
        let sinks = sinks.map { ErasedFrameSink($0) }
        let workers = DispatchQueue(label: "kira.encode", attributes: .concurrent)
        // Batches whose frames the encoders are working on, oldest first.
        var pending: [(start: Int, frames: [RGBAImage<Out>], results: EncodedBatch)] = []
        // The canvases of a batch handed over, reused: no new pages to fault in per batch.
        var spare: [RGBAImage<Out>] = []
        // The last frame of a batch is still held, as the `previous` of the next batch's first
        // frame, after its own batch was handed over: it sits one batch out here instead of being
        // written to while held (which would copy it, 30 MB a batch).
        var resting: RGBAImage<Out>?
        // The last frame given to the encoders, which the next frame's encoders compare with.
        var previous: (image: RGBAImage<Out>, scene: FrameScene, drawn: ImageRegion)?
        var start = 0
        while start < scenes.count || !pending.isEmpty {
            if start < scenes.count {
                var frames = spare
                spare = []
                let end = min(start + batchSize, scenes.count)
                try frameRenderer.render(Array(scenes[start..<end]), into: &frames)
                let batch = EncodedBatch(frames: frames.count, sinks: sinks.count)
                let drawn = frameRenderer.drawnRegions
                for (offset, frame) in frames.enumerated() {
                    let index = start + offset
                    let last = offset == 0 ? previous : (frames[offset - 1], scenes[index - 1], drawn[offset - 1])
                    // Outside where either frame drew a face, both are their background: equal
                    // when the backgrounds are.
                    let before = last.map { last in
                        PreviousFrame(image: last.image, changes: last.scene.background == scenes[index].background
                                          ? last.drawn.union(drawn[offset]) : nil)
                    }
                    for (s, sink) in sinks.enumerated() {
                        let encode = sink.encode
                        workers.async(group: batch.group) { batch.store(offset, s, Result { try encode(frame, before, index) }) }
                    }
                }
                previous = (frames[frames.count - 1], scenes[end - 1], drawn[frames.count - 1])
                pending.append((start, frames, batch))
                start = end
            }
            // The oldest batch is handed over, in order, once more than `encodingBatches` are
            // encoding (or nothing is left to render): the encoders always have the frames of
            // more than one batch to work on, so that a core never waits for the last frame of
            // one batch while the renderer waits for that core.
            guard pending.count > Self.encodingBatches || (start == scenes.count && !pending.isEmpty) else { continue }
            let (first, done, results) = pending.removeFirst()
            results.group.wait()
            for (offset, frame) in done.enumerated() {
                for (s, sink) in sinks.enumerated() {
                    try sink.consume(frame, first + offset, try results.take(offset, s).get())
                }
            }
            spare = done
            if let last = spare.popLast() {
                if let rested = resting { spare.append(rested) }
                resting = last
            }
        }
        for sink in sinks { try sink.finish() }
    }
}

/// What the sinks' encoders made of one batch, filled in by worker threads.
private final class EncodedBatch: Sendable {
    let group = DispatchGroup()
    private let sinks: Int
    private let results: Locked<[Result<any Sendable, any Error>]>

    init(frames: Int, sinks: Int) {
        self.sinks = sinks
        results = Locked(Array(repeating: .success(()), count: frames * sinks))
    }

    func store(_ frame: Int, _ sink: Int, _ result: Result<any Sendable, any Error>) {
        results.withLock { $0[frame * sinks + sink] = result }
    }

    /// Frame `frame`'s result for sink `sink`, once `group` has been waited for; released here,
    /// so that a batch's encoded bytes are not all held until its last frame is consumed.
    func take(_ frame: Int, _ sink: Int) -> Result<any Sendable, any Error> {
        results.withLock { results in
            defer { results[frame * sinks + sink] = .success(()) }
            return results[frame * sinks + sink]
        }
    }
}
