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
/// - While a batch renders on the ``FrameRenderer``'s threads, the frames of the batch before are
///   PNG-encoded, hashed and written on other threads; at most two batches are in memory.
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

    /// - Parameter loadFaces: makes a card's faces from its files; by default each face is its art
    ///   and mask as read, and all four files are needed.
    public init(threads: Int = TileScheduler.processorCount, cache: TextureCache = TextureCache(),
                batchSize: Int = 8, batchBytes: Int = 256 << 20, loadFaces: @escaping FaceLoader = CatalogueRenderer.readFaces) {
        frameRenderer = FrameRenderer(threads: threads)
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
        withoutActuallyEscaping(report) { report in renderGroups(jobs, report: report) }
    }

    private func renderGroups(_ jobs: [FrameJob], report: @escaping (Int, Outcome) -> Void) -> Int {
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

        var pipeline = Pipeline(report: report)
        var cardsWritten = 0
        for group in groups {
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
                var records: [OutputRecord] = []
                for index in indices {
                    var record = jobs[index].record
                    record.textures = faces.hashes
                    records.append(record)
                }
                let outputs = indices.map { (path: jobs[$0].output, encoding: jobs[$0].encoding) }
                if first.depth == 16 {
                    written = pipeline.render(scenes, as: UInt16.self, on: frameRenderer, jobs: indices, outputs: outputs, records: records) || written
                } else {
                    written = pipeline.render(scenes, as: UInt8.self, on: frameRenderer, jobs: indices, outputs: outputs, records: records) || written
                }
            }
            pipeline.finishPending()
            if written { cardsWritten += 1 }
        }
        pipeline.finishPending()
        return cardsWritten
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

/// Rendering on the calling thread, encoding and writing on others, one batch apart.
private struct Pipeline {
    let report: (Int, CatalogueRenderer.Outcome) -> Void
    private let writers = DispatchQueue(label: "kira.batch.write", attributes: .concurrent)
    private var pending: (jobs: [Int], results: WrittenBatch, frames: Any)?
    /// The canvases of the batch before last, written out and reused: no new pages to fault in
    /// per batch.
    private var spare: Any?
    private var directories: Set<String> = []

    init(report: @escaping (Int, CatalogueRenderer.Outcome) -> Void) {
        self.report = report
    }

    /// Renders `scenes` and queues their frames to be written; reports the batch before. Returns
    /// whether rendering succeeded (writing is reported later).
    mutating func render<Out: LaneChannel>(
        _ scenes: [FrameScene], as: Out.Type, on renderer: FrameRenderer,
        jobs: [Int], outputs: [(path: String, encoding: PNGCodec.EncodingOptions)], records: [OutputRecord]
    ) -> Bool {
        var frames = spare as? [RGBAImage<Out>] ?? []
        spare = nil
        do {
            try renderer.render(scenes, into: &frames)
        } catch {
            finishPending()
            for job in jobs { report(job, .failed(String(describing: error))) }
            return false
        }
        finishPending()
        let batch = WrittenBatch(count: frames.count)
        for (offset, frame) in frames.enumerated() {
            let output = outputs[offset], record = records[offset]
            if let failure = makeDirectory(for: output.path) {
                batch.store(offset, .failed(failure))
                continue
            }
            writers.async(group: batch.group) {
                batch.store(offset, Self.write(frame, to: output.path, encoding: output.encoding, record: record))
            }
        }
        pending = (jobs, batch, frames)
        return true
    }

    /// Waits for the batch being written and reports it.
    mutating func finishPending() {
        guard let (jobs, results, frames) = pending else { return }
        results.group.wait()
        for (job, outcome) in zip(jobs, results.take()) { report(job, outcome) }
        spare = frames
        pending = nil
    }

    /// Encodes, records, writes: the record goes first, so that a kill in between leaves an
    /// output that does not match its record (and is made again), never one wrongly up to date.
    private static func write<Out: LaneChannel>(
        _ frame: RGBAImage<Out>, to output: String, encoding: PNGCodec.EncodingOptions, record: OutputRecord
    ) -> CatalogueRenderer.Outcome {
        do throws(ImageFileError) {
            let bytes: [UInt8]
            do throws(ImageFileError) {
                bytes = try PNGCodec.encode(frame, options: encoding)
            } catch {
                throw ImageFileError(path: output, reason: error.reason)
            }
            try record.write(for: output, outputHash: ContentHash.sha256(bytes))
            try FileIO.writeAtomically(bytes, to: output)
            return .rendered
        } catch {
            return .failed(error.description)
        }
    }

    /// Creates the folder of `output` and its parents when missing; the reason on failure.
    private mutating func makeDirectory(for output: String) -> String? {
        guard let slash = output.lastIndex(of: "/"), slash != output.startIndex else { return nil }
        let directory = String(output[..<slash])
        if directories.contains(directory) { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            return "\(directory): cannot create the folder"
        }
        directories.insert(directory)
        return nil
    }
}

/// The outcomes of one batch, filled in by writer threads.
private final class WrittenBatch: @unchecked Sendable {
    let group = DispatchGroup()
    private var outcomes: [CatalogueRenderer.Outcome]
    private let lock = DispatchSemaphore(value: 1)

    init(count: Int) {
        outcomes = Array(repeating: .rendered, count: count)
    }

    func store(_ index: Int, _ outcome: CatalogueRenderer.Outcome) {
        lock.wait()
        outcomes[index] = outcome
        lock.signal()
    }

    /// The outcomes, once `group` has been waited for.
    func take() -> [CatalogueRenderer.Outcome] {
        lock.wait()
        defer { lock.signal() }
        return outcomes
    }
}
