import Dispatch
import Foundation
import KiraImage
import KiraRender
import KiraRequest

/// One frame to make: a manifest row, its values checked, ready to render.
public struct FrameJob: Sendable {
    /// The manifest row it comes from.
    public var row: Int
    /// The PNG file to write (its folder is created when missing).
    public var output: String
    /// The frame: card, pose, canvas, shader, depth and compression.
    public var request: RenderRequest
    /// The row's record; the texture hashes are filled in from the bytes actually decoded.
    public var record: OutputRecord

    public init(row: Int, output: String, request: RenderRequest, record: OutputRecord) {
        self.row = row
        self.output = output
        self.request = request
        self.record = record
    }
}

/// Renders a catalogue's frames fast in bulk, each frame byte-identical to rendering it alone.
///
/// - Jobs are grouped by card (the same four textures and bit depth), in order of first
///   appearance, so each card's textures are taken from the ``TextureCache`` once and its frames
///   are rendered in batches that shade each face once for the whole batch (a sweep).
/// - Rendered frames go to a ``FramePipeline``: while the next batch renders on the
///   ``FrameRenderer``'s threads, the frames before are PNG-encoded and hashed, several at once,
///   on other threads, and written on I/O threads; at most two batches are in memory.
/// - A job that fails (a missing or corrupt texture, an unwritable output) is reported and the
///   others go on.
///
/// Frames are encoded as each job's request says (``RenderRequest/output``).
public final class CatalogueRenderer {
    public let frameRenderer: FrameRenderer
    public let cache: TextureCache
    /// Frames per batch at most.
    public let batchSize: Int
    /// Canvas bytes per batch at most (a batch holds at least one frame).
    public let batchBytes: Int

    public init(threads: Int = TileScheduler.processorCount, cache: TextureCache = TextureCache(),
                batchSize: Int = 8, batchBytes: Int = 256 << 20) {
        frameRenderer = FrameRenderer(threads: threads)
        self.cache = cache
        self.batchSize = max(1, batchSize)
        self.batchBytes = batchBytes
    }

    /// What happened to a job.
    public enum Outcome: Sendable, Equatable {
        case rendered
        /// The reason, one line naming the file where there is one.
        case failed(String)
    }

    /// Renders `jobs`, calling `report` on the calling thread once for each job (its index in
    /// `jobs`) as it finishes. Returns the number of cards (groups of jobs sharing textures) of
    /// which at least one frame was written.
    @discardableResult
    public func render(_ jobs: [FrameJob], report: (_ job: Int, _ outcome: Outcome) -> Void) -> Int {
        var groups: [[Int]] = []
        var groupOf: [GroupKey: Int] = [:]
        for (index, job) in jobs.enumerated() {
            let key = GroupKey(textures: job.request.card, depth: job.request.output.depth)
            if let group = groupOf[key] {
                groups[group].append(index)
            } else {
                groupOf[key] = groups.count
                groups.append([index])
            }
        }

        // A batch may wait to be encoded while the next one renders: enough to keep every
        // encoder busy, and few canvases to fault in.
        let pipeline = FramePipeline(limit: 2 * batchSize, limitBytes: 2 * batchBytes)
        var cardsWritten = 0
        for group in groups {
            pipeline.collect(report: report)
            let first = jobs[group[0]]
            let faces: (front: CardFace, back: CardFace, hashes: [String: String])
            do {
                faces = try load(first.request.card)
            } catch {
                for index in group { report(index, .failed(String(describing: error))) }
                continue
            }
            var written = false
            var start = 0
            while start < group.count {
                let scenes = batch(group, from: start, jobs: jobs, faces: faces)
                let indices = Array(group[start..<(start + scenes.count)])
                start += scenes.count
                let bytes = scenes.reduce(0) { $0 + $1.canvasBytes(channelBytes: first.request.output.channelBytes) }
                pipeline.collect(waitingForRoom: scenes.count, bytes: bytes, report: report)
                if first.request.output.depth == 16 {
                    written = render(scenes, as: UInt16.self, jobs: jobs, indices: indices, hashes: faces.hashes, through: pipeline, report: report) || written
                } else {
                    written = render(scenes, as: UInt8.self, jobs: jobs, indices: indices, hashes: faces.hashes, through: pipeline, report: report) || written
                }
            }
            if written { cardsWritten += 1 }
        }
        pipeline.finish(report: report)
        return cardsWritten
    }

    /// Renders one batch and hands its frames to `pipeline`; false when rendering failed (each of
    /// its jobs is then reported).
    private func render<Out: LaneChannel>(
        _ scenes: [FrameScene], as: Out.Type, jobs: [FrameJob], indices: [Int], hashes: [String: String],
        through pipeline: FramePipeline, report: (Int, Outcome) -> Void
    ) -> Bool {
        var frames = pipeline.canvases(scenes.count, as: Out.self)
        do {
            try frameRenderer.render(scenes, into: &frames)
        } catch {
            for index in indices { report(index, .failed(String(describing: error))) }
            return false
        }
        for (frame, index) in zip(frames, indices) {
            var record = jobs[index].record
            record.textures = hashes
            pipeline.submit(frame, job: index, output: jobs[index].output, encoding: jobs[index].request.output.compression.options,
                            record: record, report: report)
        }
        return true
    }

    private struct GroupKey: Hashable {
        let textures: CardTextures
        let depth: Int
    }

    /// The faces of a card, each file read once through the cache, and the hashes of the files read.
    private func load(_ textures: CardTextures) throws -> (front: CardFace, back: CardFace, hashes: [String: String]) {
        var hashes: [String: String] = [:]
        let card = try textures.load { path in
            let texture = try cache.texture(at: path)
            for (role, file) in textures.byRole where file == path { hashes[role] = texture.hash }
            return texture.image
        }
        return (card.front.face, card.back.face, hashes)
    }

    /// The scenes of the next batch of `group` from `start`: up to `batchSize` frames and
    /// `batchBytes` of canvas.
    private func batch(_ group: [Int], from start: Int, jobs: [FrameJob],
                       faces: (front: CardFace, back: CardFace, hashes: [String: String])) -> [FrameScene] {
        var scenes: [FrameScene] = []
        var bytes = 0
        for index in group[start...] {
            let scene = jobs[index].request.scene(front: faces.front, back: faces.back)
            let size = scene.canvasBytes(channelBytes: jobs[index].request.output.channelBytes)
            if !scenes.isEmpty, scenes.count == batchSize || bytes + size > batchBytes { break }
            scenes.append(scene)
            bytes += size
        }
        return scenes
    }
}
