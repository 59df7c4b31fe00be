import Dispatch
import Foundation
import KiraImage
import KiraRender

/// The texture files of a card. A file not given (nil) is left to the face loader's defaults
/// (`kira batch`: those of `kira render`).
public struct CardTextures: Hashable, Sendable {
    public var art: String?
    public var mask: String?
    public var back: String?
    public var backMask: String?

    public init(art: String?, mask: String?, back: String?, backMask: String?) {
        self.art = art
        self.mask = mask
        self.back = back
        self.backMask = backMask
    }

    /// Each file given, with its role, as manifests and records name them.
    public var byRole: [(role: String, path: String)] {
        [("art", art), ("mask", mask), ("back", back), ("back_mask", backMask)].compactMap { role, path in
            path.map { (role, $0) }
        }
    }
}

/// Makes a card's two faces from its textures, reading each file through `read`.
public typealias FaceLoader = (_ textures: CardTextures, _ read: (String) throws -> AnyRGBAImage) throws
    -> (front: CardFace, back: CardFace)

/// One frame to make: a manifest row, its values checked, ready to render.
public struct FrameJob {
    /// The manifest row it comes from.
    public var row: Int
    /// The PNG file to write (its folder is created when missing).
    public var output: String
    public var textures: CardTextures
    /// 8 or 16 bits per channel.
    public var depth: Int
    /// How the PNG is compressed.
    public var encoding: PNGCodec.EncodingOptions
    /// The row's record; the texture hashes are filled in from the bytes actually decoded.
    public var record: OutputRecord
    /// The frame's scene, given the card's faces (the default canvas depends on the art's size).
    public var scene: (_ front: CardFace, _ back: CardFace) -> FrameScene

    public init(row: Int, output: String, textures: CardTextures, depth: Int, encoding: PNGCodec.EncodingOptions = .standard,
                record: OutputRecord, scene: @escaping (CardFace, CardFace) -> FrameScene) {
        self.row = row
        self.output = output
        self.textures = textures
        self.depth = depth
        self.encoding = encoding
        self.record = record
        self.scene = scene
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
/// Frames are encoded with each job's ``FrameJob/encoding``.
public final class CatalogueRenderer {
    public let frameRenderer: FrameRenderer
    public let cache: TextureCache
    /// Frames per batch at most.
    public let batchSize: Int
    /// Canvas bytes per batch at most (a batch holds at least one frame).
    public let batchBytes: Int

    /// Makes each card's faces.
    public let loadFaces: FaceLoader
    /// Files every job reads besides its textures (the manifest): no output may be one of them.
    public let inputs: [String]

    /// - Parameters:
    ///   - loadFaces: makes a card's faces from its files; by default each face is its art and
    ///     mask as read, and all four files are needed.
    ///   - inputs: files the jobs read besides their textures (the manifest).
    public init(threads: Int = TileScheduler.processorCount, cache: TextureCache = TextureCache(),
                batchSize: Int = 8, batchBytes: Int = 256 << 20, inputs: [String] = [],
                loadFaces: @escaping FaceLoader = CatalogueRenderer.readFaces) {
        frameRenderer = FrameRenderer(threads: threads)
        self.inputs = inputs
        self.cache = cache
        self.loadFaces = loadFaces
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
            let key = GroupKey(textures: job.textures, depth: job.depth)
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
                faces = try load(first.textures)
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
                let bytes = scenes.reduce(0) { $0 + $1.canvasWidth * $1.canvasHeight * 4 * first.depth / 8 }
                pipeline.collect(waitingForRoom: scenes.count, bytes: bytes, report: report)
                if first.depth == 16 {
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
            let inputs = self.inputs + jobs[index].textures.byRole.map(\.path)
            pipeline.submit(frame, job: index, output: jobs[index].output, inputs: inputs, encoding: jobs[index].encoding,
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
        let faces = try loadFaces(textures) { path in
            let texture = try cache.texture(at: path)
            for (role, file) in textures.byRole where file == path { hashes[role] = texture.hash }
            return texture.image
        }
        return (faces.front, faces.back, hashes)
    }

    /// The plain face loader: art and mask as read; all four files must be given.
    public static func readFaces(_ textures: CardTextures, read: (String) throws -> AnyRGBAImage) throws -> (front: CardFace, back: CardFace) {
        guard let art = textures.art, let mask = textures.mask, let back = textures.back, let backMask = textures.backMask else {
            throw ImageFileError(path: "<card>", reason: "art, mask, back and back_mask are all needed")
        }
        return (CardFace(art: try read(art), mask: try read(mask)), CardFace(art: try read(back), mask: try read(backMask)))
    }

    /// The scenes of the next batch of `group` from `start`: up to `batchSize` frames and
    /// `batchBytes` of canvas.
    private func batch(_ group: [Int], from start: Int, jobs: [FrameJob],
                       faces: (front: CardFace, back: CardFace, hashes: [String: String])) -> [FrameScene] {
        var scenes: [FrameScene] = []
        var bytes = 0
        for index in group[start...] {
            let scene = jobs[index].scene(faces.front, faces.back)
            let size = scene.canvasWidth * scene.canvasHeight * 4 * jobs[index].depth / 8
            if !scenes.isEmpty, scenes.count == batchSize || bytes + size > batchBytes { break }
            scenes.append(scene)
            bytes += size
        }
        return scenes
    }
}
