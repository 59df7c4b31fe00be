import Dispatch
import KiraFiles
import KiraImage
import KiraLaneJobs
import KiraRender

/// Frames on their way from the renderer to sinks: each batch submitted is rendered (one shading
/// sweep), its frames are encoded by every sink's encoder on worker threads, and they are handed
/// over to the sinks in order, on the submitting thread, once more than
/// ``FramePipeline/encodingBatches`` batches are encoding (or at ``drain()``).
///
/// Made by ``FramePipeline/stream(to:)``. The canvases of batches handed over are rendered into
/// again, so that no new pages are faulted in per batch. Frames are numbered from 0 across every
/// batch of the stream, in the order submitted.
public final class FrameStream<Out: LaneChannel> {
    private let renderer: FrameRenderer
    private let sinks: [ErasedFrameSink<Out>]
    private let workers = DispatchQueue(label: "kira.encode", attributes: .concurrent)
    /// Batches whose frames the encoders are working on, oldest first.
    private var pending: [(start: Int, frames: [RGBAImage<Out>], results: EncodedBatch)] = []
    /// The canvases of a batch handed over, reused.
    private var spare: [RGBAImage<Out>] = []
    /// The last frame of a batch is still held, as the `previous` of the next batch's first frame,
    /// after its own batch was handed over: it sits one batch out here instead of being written to
    /// while held (which would copy it, 30 MB a batch).
    private var resting: RGBAImage<Out>?
    /// The last frame given to the encoders, which the next frame's encoders compare with.
    private var previous: (image: RGBAImage<Out>, scene: FrameScene, drawn: ImageRegion)?
    /// Frames submitted so far: the index of the next one.
    public private(set) var count = 0

    init(renderer: FrameRenderer, sinks: [any FrameSink<Out>]) {
        self.renderer = renderer
        self.sinks = sinks.map { ErasedFrameSink($0) }
    }

    /// Renders `scenes` as one batch and starts the sinks' encoders on its frames; then hands
    /// over, in order, the oldest batches while more than ``FramePipeline/encodingBatches`` are
    /// encoding. A render that fails leaves the stream as it was (nothing of the batch is
    /// submitted); a failing encoder or sink stops the stream.
    public func submit(_ scenes: [FrameScene]) throws {
        guard !scenes.isEmpty else { return }
        var frames = spare
        spare = []
        do {
            try renderer.render(scenes, into: &frames)
        } catch {
            spare = frames
            throw error
        }
        let start = count
        let batch = EncodedBatch(frames: frames.count, sinks: sinks.count)
        let drawn = renderer.drawnRegions
        for (offset, frame) in frames.enumerated() {
            let index = start + offset
            let last = offset == 0 ? previous : (frames[offset - 1], scenes[offset - 1], drawn[offset - 1])
            // Outside where either frame drew a face, both are their background: equal when the
            // backgrounds are.
            let before = last.map { last in
                PreviousFrame(image: last.image, changes: last.scene.background == scenes[offset].background
                                  ? last.drawn.union(drawn[offset]) : nil)
            }
            for (s, sink) in sinks.enumerated() {
                let encode = sink.encode
                workers.async(group: batch.group) { batch.store(offset, s, Result { try encode(frame, before, index) }) }
            }
        }
        previous = (frames[frames.count - 1], scenes[scenes.count - 1], drawn[frames.count - 1])
        pending.append((start, frames, batch))
        count += scenes.count
        // The oldest batch is handed over once more than `encodingBatches` are encoding: the
        // encoders always have the frames of more than one batch to work on, so that a core never
        // waits for the last frame of one batch while the renderer waits for that core.
        while pending.count > FramePipeline.encodingBatches { try handOverOldest() }
        // Batches already encoded go on at once: a catalogue's files appear as they are made
        // (a kill loses less), and their canvases come back to be rendered into sooner.
        while let oldest = pending.first, oldest.results.group.wait(timeout: .now()) == .success { try handOverOldest() }
    }

    /// Hands over every batch still encoding.
    public func drain() throws {
        while !pending.isEmpty { try handOverOldest() }
    }

    /// Hands over every batch still encoding, then completes every sink.
    public func finish() throws {
        try drain()
        for sink in sinks { try sink.finish() }
    }

    private func handOverOldest() throws {
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
