import Dispatch
import KiraImage

/// Renders a sequence of frames and hands each one, encoded, to a sink in order, keeping every
/// core busy: frames are rendered in batches (one shading sweep per batch, see
/// ``FrameRenderer/render(_:into:)-(_,[RGBAImage<Out>])``), and while the next batch renders,
/// the frames of the last one are encoded on other threads.
///
/// The frames are exactly those of rendering each scene alone; only the schedule differs.
public final class FrameSequenceRenderer {
    public let frameRenderer: FrameRenderer
    /// Frames per batch: more shares more shading work, costs more memory (one canvas each).
    public let batchSize: Int

    public init(threads: Int = TileScheduler.processorCount, batchSize: Int = 8) {
        frameRenderer = FrameRenderer(threads: threads)
        self.batchSize = max(1, batchSize)
    }

    /// Renders `scenes`, encodes each frame with `encode` (called concurrently, off the calling
    /// thread; PNG bytes, say), and calls `deliver` with the frame's index and encoding in
    /// order, on the calling thread. Stops at the first error, from rendering, encoding or
    /// `deliver`.
    public func render<Out: LaneChannel, Encoded: Sendable>(
        _ scenes: [FrameScene], as: Out.Type,
        encode: @escaping @Sendable (RGBAImage<Out>) throws -> Encoded,
        deliver: (_ index: Int, _ encoded: Encoded) throws -> Void
    ) throws {
        let encoders = DispatchQueue(label: "kira.encode", attributes: .concurrent)
        var pending: (start: Int, frames: [RGBAImage<Out>], results: EncodedBatch<Encoded>)?
        // The canvases of the batch before last, reused: no new pages to fault in per batch.
        var spare: [RGBAImage<Out>] = []
        var start = 0
        while start < scenes.count || pending != nil {
            var frames = spare
            spare = []
            if start < scenes.count {
                let end = min(start + batchSize, scenes.count)
                try frameRenderer.render(Array(scenes[start..<end]), into: &frames)
            } else {
                frames = []
            }
            // The batch before this one has been encoding meanwhile: hand it over in order.
            if let (first, done, results) = pending {
                results.group.wait()
                for (offset, result) in results.take().enumerated() {
                    try deliver(first + offset, try result.get())
                }
                spare = done
                pending = nil
            }
            if !frames.isEmpty {
                let batch = EncodedBatch<Encoded>(count: frames.count)
                for (offset, frame) in frames.enumerated() {
                    encoders.async(group: batch.group) { batch.store(offset, Result { try encode(frame) }) }
                }
                pending = (start, frames, batch)
                start += frames.count
            }
        }
    }
}

/// The encoded frames of one batch, filled in by encoder threads.
private final class EncodedBatch<Encoded: Sendable>: @unchecked Sendable {
    let group = DispatchGroup()
    private var results: [Result<Encoded, any Error>?]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func store(_ index: Int, _ result: Result<Encoded, any Error>) {
        lock.wait()
        results[index] = result
        lock.signal()
    }

    /// The results, once `group` has been waited for.
    func take() -> [Result<Encoded, any Error>] {
        lock.wait()
        defer { lock.signal() }
        return results.map { $0! }
    }
}
