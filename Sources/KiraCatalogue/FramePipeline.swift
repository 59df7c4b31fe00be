import Dispatch
import Foundation
import KiraImage
import KiraRender

/// Rendered frames on their way to disk: PNG-encoded and hashed on worker threads, several frames
/// at once, and written (record, then output, each flushed to the disk) on I/O threads.
///
/// The thread that renders hands each frame over and goes straight on to the next batch, so that
/// encoding, which costs several times what rendering does, keeps every core busy while the next
/// frames render. Writing is apart from encoding because `fsync` waits for the disk without using
/// a core: an encoder blocked in it would leave its core idle.
///
/// At most `limit` frames (and about `limitBytes` of canvas) are in flight at a time. A canvas whose
/// PNG is made goes back to a pool and is rendered into again, so that no new pages are faulted in
/// per frame (the encoders' buffers are kept by ``PNGCodec`` itself). Outcomes are collected
/// and handed to `report` on the rendering thread, in
/// ``collect(waitingForRoom:bytes:report:)`` and ``finish(report:)``.
final class FramePipeline: @unchecked Sendable {
    private let limit: Int
    private let limitBytes: Int
    private let encoders = DispatchQueue(label: "kira.batch.encode", attributes: .concurrent)
    /// Serial queues, each on a thread of its own: several files are flushed to the disk at once,
    /// which is what bounds a catalogue of small frames (a flush takes about a millisecond here).
    private let writers = (0..<4).map { DispatchQueue(label: "kira.batch.write\($0)") }

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var framesInFlight = 0
    private var bytesInFlight = 0
    private var finished: [(job: Int, outcome: CatalogueRenderer.Outcome)] = []
    private var spare: [any Sendable] = []

    /// Folders made so far (rendering thread only).
    private var directories: Set<String> = []

    /// The outcome of a job, reported on the rendering thread. Not kept by the pipeline, whose
    /// threads may outlive the caller's `report` by a moment.
    typealias Report = (_ job: Int, _ outcome: CatalogueRenderer.Outcome) -> Void

    init(limit: Int, limitBytes: Int) {
        self.limit = max(1, limit)
        self.limitBytes = limitBytes
    }

    /// Canvases to render `count` frames into: encoded ones from the pool, else empty ones (the
    /// renderer sizes them).
    func canvases<Out: LaneChannel>(_ count: Int, as: Out.Type) -> [RGBAImage<Out>] {
        condition.lock()
        var frames: [RGBAImage<Out>] = []
        var others: [any Sendable] = []
        for item in spare {
            if frames.count < count, let frame = item as? RGBAImage<Out> { frames.append(frame) } else { others.append(item) }
        }
        spare = others
        condition.unlock()
        while frames.count < count { frames.append(RGBAImage(width: 0, height: 0)) }
        return frames
    }

    /// Reports the outcomes that have come in; with `count` frames of `bytes` bytes about to be
    /// rendered, first waits until they fit beside those in flight (always, once none are).
    func collect(waitingForRoom count: Int = 0, bytes: Int = 0, report: Report) {
        while true {
            condition.lock()
            while finished.isEmpty, !fits(count, bytes) { condition.wait() }
            let done = finished
            finished = []
            let full = !fits(count, bytes)
            condition.unlock()
            for (job, outcome) in done { report(job, outcome) }
            if !full { return }
        }
    }

    /// Whether `count` more frames of `bytes` may go in flight (under `condition`).
    private func fits(_ count: Int, _ bytes: Int) -> Bool {
        count == 0 || framesInFlight == 0 || (framesInFlight + count <= limit && bytesInFlight + bytes <= limitBytes)
    }

    /// Queues `frame` to be encoded with `encoding`, its record written, then the file `output`
    /// (which may not be one of `inputs`).
    func submit<Out: LaneChannel>(
        _ frame: RGBAImage<Out>, job: Int, output: String, inputs: [String], encoding: PNGCodec.EncodingOptions,
        record: OutputRecord, report: Report
    ) {
        if let failure = makeDirectory(for: output) {
            report(job, .failed(failure))
            return
        }
        let bytes = frame.width * frame.height * 4 * MemoryLayout<Out>.size
        condition.lock()
        framesInFlight += 1
        bytesInFlight += bytes
        condition.unlock()
        encoders.async {
            let encoded: Result<(bytes: [UInt8], hash: String), ImageFileError>
            do throws(ImageFileError) {
                let png = try PNGCodec.encode(frame, options: encoding)
                encoded = .success((png, ContentHash.sha256(png)))
            } catch {
                encoded = .failure(ImageFileError(path: output, reason: error.reason))
            }
            self.recycle(frame)
            self.writers[job % self.writers.count].async {
                let outcome: CatalogueRenderer.Outcome
                do throws(ImageFileError) {
                    let png = try encoded.get()
                    try Self.write(png.bytes, hash: png.hash, to: output, inputs: inputs, record: record)
                    outcome = .rendered
                } catch {
                    outcome = .failed(error.description)
                }
                self.finish(job, outcome, bytes: bytes)
            }
        }
    }

    /// Waits for every frame in flight and reports it.
    func finish(report: Report) {
        condition.lock()
        while framesInFlight > 0 { condition.wait() }
        condition.unlock()
        collect(report: report)
    }

    /// The record goes first, so that a kill in between leaves an output that does not match its
    /// record (and is made again), never one wrongly up to date. The output opens by the
    /// catalogue's rule: a FIFO or a device there fails the row, as does one of `inputs`.
    private static func write(_ png: [UInt8], hash: String, to output: String, inputs: [String],
                              record: OutputRecord) throws(ImageFileError) {
        let file = try AtomicOutputFile(path: output, rule: .catalogue, inputs: inputs)
        try record.write(for: output, outputHash: hash)
        try file.write(png)
        try file.commit()
    }

    private func recycle<Out: LaneChannel>(_ frame: RGBAImage<Out>) {
        condition.lock()
        if spare.count < limit { spare.append(frame) }
        condition.unlock()
    }

    private func finish(_ job: Int, _ outcome: CatalogueRenderer.Outcome, bytes: Int) {
        condition.lock()
        framesInFlight -= 1
        bytesInFlight -= bytes
        finished.append((job, outcome))
        condition.broadcast()
        condition.unlock()
    }

    /// Creates the folder of `output` and its parents when missing; the reason on failure.
    private func makeDirectory(for output: String) -> String? {
        guard let slash = output.lastIndex(of: "/"), slash != output.startIndex else { return nil }
        let directory = String(output[..<slash])
        if directories.contains(directory) { return nil }
        do {
            try FileIO.makeDirectories(directory)
        } catch {
            return error.description
        }
        directories.insert(directory)
        return nil
    }
}
