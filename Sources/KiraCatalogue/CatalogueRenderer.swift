import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraFiles
import KiraFormats
import KiraImage
import KiraPipeline
import KiraRender
import KiraRequest
import KiraTextureCache

/// One frame to make: a manifest row, its values checked, ready to render.
public struct FrameJob: Sendable {
    /// The manifest row it comes from.
    public var row: Int
    /// The file to write (its folder is created when missing).
    public var output: String
    /// Its format, by its extension.
    public var format: StillFormat
    /// The frame: card, pose, canvas, shader, and how it is stored.
    public var request: RenderRequest
    /// The row's record; the texture hashes are filled in from the bytes actually decoded.
    public var record: OutputRecord
    /// Where the record is written (``RecordStore/path(forKey:)``).
    public var recordPath: String

    public init(row: Int, output: String, format: StillFormat = .png, request: RenderRequest, record: OutputRecord, recordPath: String) {
        self.row = row
        self.output = output
        self.format = format
        self.request = request
        self.record = record
        self.recordPath = recordPath
    }
}

/// Renders a catalogue's frames fast in bulk, each frame byte-identical to rendering it alone.
///
/// - Jobs are grouped by card (the same four textures and bit depth), in order of first
///   appearance, so each card's textures are taken from the ``/KiraTextureCache/TextureCache`` once and its frames
///   are rendered in batches that shade each face once for the whole batch (a sweep).
/// - Batches stream through the one ``FramePipeline``: while the next batch renders on the
///   ``FrameRenderer``'s threads, the frames before are encoded and hashed, several at once,
///   on other threads, and written on I/O threads (``CatalogueSink``).
/// - A job that fails (a missing or corrupt texture, an unwritable output) is reported and the
///   others go on.
///
/// Frames are encoded as each job's request says (``RenderRequest/output``).
public final class CatalogueRenderer {
    public let pipeline: FramePipeline
    public let cache: TextureCache
    /// Frames per batch at most.
    public let batchSize: Int
    /// Canvas bytes per batch at most (a batch holds at least one frame).
    public let batchBytes: Int
    /// Files every job reads besides its textures (the manifest): no output may be one of them.
    public let inputs: [String]
    /// What one frame may need, as `kira render` checks it: a row over it fails alone.
    public let budget: MemoryBudget

    /// - Parameter inputs: files the jobs read besides their textures (the manifest).
    public init(threads: Int = TileScheduler.processorCount, cache: TextureCache = TextureCache(),
                batchSize: Int = 8, batchBytes: Int = 256 << 20, inputs: [String] = [],
                budget: MemoryBudget = .standard) {
        pipeline = FramePipeline(threads: threads, batchSize: batchSize)
        self.inputs = inputs
        self.cache = cache
        self.batchSize = max(1, batchSize)
        self.batchBytes = batchBytes
        self.budget = budget
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

        // 8- and 16-bit frames flow through a stream each.
        let eight = Lane<UInt8>(pipeline), sixteen = Lane<UInt16>(pipeline)
        var cardsWritten = 0
        for group in groups {
            let first = jobs[group[0]]
            let card: (faces: LoadedCard, hashes: [String: String])
            do {
                card = try load(first.request.card)
            } catch {
                for index in group { report(index, .failed(String(describing: error))) }
                continue
            }
            // Each frame through the library's checks (a {width} over its canvas, the format's
            // settings, its memory), as `kira render` makes them; a frame that fails them fails its
            // row alone.
            var frames: [(job: Int, frame: PreparedFrame)] = []
            for index in group {
                do throws(RequestError) {
                    frames.append((index, try jobs[index].request.prepare(card.faces, format: jobs[index].format, budget: budget)))
                } catch {
                    report(index, .failed(error.description))
                }
            }
            var written = false
            var start = 0
            while start < frames.count {
                let count = batchCount(frames, from: start)
                let batch = frames[start..<(start + count)].map { index, frame in
                    var record = jobs[index].record
                    record.textures = card.hashes
                    return (frame.scene, CatalogueFrame(job: index, output: jobs[index].output,
                                                        inputs: inputs + jobs[index].request.card.paths,
                                                        encoder: frame.request.output.encoder(for: frame.format),
                                                        record: record, recordPath: jobs[index].recordPath))
                }
                start += count
                let rendered = first.request.output.depth == 16
                    ? sixteen.submit(batch, report: report) : eight.submit(batch, report: report)
                written = rendered || written
            }
            if written { cardsWritten += 1 }
        }
        eight.finish(report: report)
        sixteen.finish(report: report)
        return cardsWritten
    }

    /// A stream of one channel type into its catalogue sink.
    private final class Lane<Out: LaneChannel> {
        let sink = CatalogueSink<Out>()
        let stream: FrameStream<Out>

        init(_ pipeline: FramePipeline) {
            stream = pipeline.stream(to: [sink])
        }

        /// Renders one batch into the stream; false when rendering failed (each of its jobs is then
        /// reported). A failing sink fails its own job, never the stream.
        func submit(_ batch: [(scene: FrameScene, frame: CatalogueFrame)], report: (Int, Outcome) -> Void) -> Bool {
            for (_, frame) in batch { sink.expect(frame) }
            defer { sink.collect(report: report) }
            do {
                try stream.submit(batch.map(\.scene))
            } catch {
                sink.withdraw(batch.count)
                for (_, frame) in batch { report(frame.job, .failed(String(describing: error))) }
                return false
            }
            return true
        }

        func finish(report: (Int, Outcome) -> Void) {
            do {
                try stream.finish()
            } catch {
                preconditionFailure("a catalogue sink reports failures, it does not throw: \(error)")
            }
            sink.collect(report: report)
        }
    }

    private struct GroupKey: Hashable {
        let textures: CardTextures
        let depth: Int
    }

    /// The faces of a card, each file read once through the cache, and the hashes of the files read.
    private func load(_ textures: CardTextures) throws -> (faces: LoadedCard, hashes: [String: String]) {
        var hashes: [String: String] = [:]
        let card = try textures.load { path, role in
            let texture = try cache.texture(at: path, role: role)
            for (role, file) in textures.byRole where file == path { hashes[role] = texture.hash }
            return texture.image
        }
        return (card, hashes)
    }

    /// How many of `frames` from `start` make the next batch: up to `batchSize` frames and
    /// `batchBytes` of canvas (at least one).
    private func batchCount(_ frames: [(job: Int, frame: PreparedFrame)], from start: Int) -> Int {
        var count = 0, bytes = 0
        for (_, frame) in frames[start...] {
            let size = frame.scene.canvasBytes(channelBytes: frame.request.output.channelBytes)
            if count > 0, count == batchSize || bytes + size > batchBytes { break }
            count += 1
            bytes += size
        }
        return count
    }
}
