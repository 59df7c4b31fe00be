import Dispatch
import KiraFiles
import KiraFormats
import KiraImage
import KiraPipeline
import KiraRequest
import KiraRender
import KiraTextureCache

/// The frames of a catalogue on their way to disk: each encoded (PNG, WebP or JPEG) and hashed by the pipeline's
/// encoders (several frames at once), then written — record, then output, each flushed to the
/// disk — on I/O threads, so that `fsync`, which waits for the disk without using a core, never
/// holds an encoder's core.
///
/// Every frame is its own file with its own job; a failure fails that job alone (reported, not
/// thrown). Outcomes are collected and handed to a report on the rendering thread
/// (``collect(report:)``).
final class CatalogueSink<Channel: LaneChannel>: FrameSink {
    /// Serial queues, each on a thread of its own: several files are flushed at once, which is
    /// what bounds a catalogue of small frames (a flush took about a millisecond, 2 cores).
    private let writers = (0..<4).map { DispatchQueue(label: "kira.batch.write\($0)") }
    private let writes = DispatchGroup()
    /// Encoded frames waiting to be written, at most: their bytes are held until then.
    private let writeSlots = DispatchSemaphore(value: 16)
    private let frames = Locked<[CatalogueFrame]>([])
    private let outcomes = Locked<[(job: Int, outcome: CatalogueRenderer.Outcome)]>([])
    /// Folders made so far (rendering thread only).
    private var directories: Set<String> = []

    /// Announces the next frame of the stream (its index is the number announced before it).
    func expect(_ frame: CatalogueFrame) { frames.withLock { $0.append(frame) } }

    /// Takes back the last `count` announcements, of frames that were not rendered after all.
    func withdraw(_ count: Int) { frames.withLock { $0.removeLast(count) } }

    func makeEncoder() -> FrameEncoder<Channel, Result<(bytes: [UInt8], hash: String), ImageFileError>> {
        let frames = self.frames
        return { image, _, index in
            let frame = frames.withLock { $0[index] }
            do throws(ImageFileError) {
                let encoded = try frame.encoder.encode(image)
                return .success((encoded, ContentHash.sha256(encoded)))
            } catch {
                return .failure(ImageFileError(path: frame.output, reason: error.reason))
            }
        }
    }

    func consume(_ image: RGBAImage<Channel>, index: Int, encoded: Result<(bytes: [UInt8], hash: String), ImageFileError>) throws {
        let frame = frames.withLock { $0[index] }
        if let failure = makeDirectory(for: frame.output) ?? makeDirectory(for: frame.recordPath) {
            outcomes.withLock { $0.append((frame.job, .failed(failure))) }
            return
        }
        writeSlots.wait()
        let outcomes = self.outcomes, slots = writeSlots
        writers[frame.job % writers.count].async(group: writes) {
            let outcome: CatalogueRenderer.Outcome
            do throws(ImageFileError) {
                let encodedFile = try encoded.get()
                // The output opens by the catalogue's rule (a FIFO or a device there, or one of the
                // inputs, fails the row). The record goes first, so that a kill in between leaves an
                // output that does not match its record (and is made again), never one wrongly up
                // to date.
                let file = try AtomicOutputFile(path: frame.output, rule: .catalogue, inputs: frame.inputs)
                try frame.record.write(to: frame.recordPath, outputHash: encodedFile.hash)
                try file.write(encodedFile.bytes)
                try file.commit()
                outcome = .rendered
            } catch {
                outcome = .failed(error.description)
            }
            slots.signal()
            outcomes.withLock { $0.append((frame.job, outcome)) }
        }
    }

    /// Waits for every write.
    func finish() throws { writes.wait() }

    /// Hands the outcomes that have come in to `report`.
    func collect(report: (_ job: Int, _ outcome: CatalogueRenderer.Outcome) -> Void) {
        let done = outcomes.withLock { outcomes in
            defer { outcomes = [] }
            return outcomes
        }
        for (job, outcome) in done { report(job, outcome) }
    }

    /// Creates the folder of `output` and its parents when missing; the reason on failure.
    private func makeDirectory(for output: String) -> String? {
        let directory = FileIO.parentDirectory(of: output)
        if directory == "." || directories.contains(directory) { return nil }
        do {
            try FileIO.makeDirectories(directory)
        } catch {
            return error.description
        }
        directories.insert(directory)
        return nil
    }
}

/// What a ``CatalogueSink`` needs to know of a frame of its stream: its job and how to write it.
struct CatalogueFrame: Sendable {
    var job: Int
    var output: String
    /// Files no output may be (the manifest, the job's textures).
    var inputs: [String]
    var encoder: StillEncoder
    var record: OutputRecord
    var recordPath: String
}
