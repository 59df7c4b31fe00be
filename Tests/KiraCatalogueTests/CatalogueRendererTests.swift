import Foundation
import KiraCatalogue
import KiraFiles
import KiraGeometry
import KiraImage
import KiraPNG
import KiraRender
import KiraRequest
import KiraTextureCache
import Testing

@Suite struct CatalogueRendererTests {
    let directory: String

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-catalogue-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/textures", withIntermediateDirectories: true)
        for (index, name) in ["art1", "art2", "mask", "back"].enumerated() {
            var image = try RGBAImage<UInt8>(width: 24, height: 32)
            for i in image.channels.indices { image.channels[i] = i % 4 == 3 ? 255 : UInt8((i * (index + 5)) % 251) }
            try PNGCodec.write(image, to: "\(directory)/textures/\(name).png")
        }
    }

    func job(_ row: Int, art: String, tilt: Double, flip: Double = 0, depth: Int = 8, canvas: (Int, Int) = (40, 48)) -> FrameJob {
        let t = { (name: String) in "\(directory)/textures/\(name).png" }
        var request = RenderRequest()
        request.card = CardTextures(art: t(art), mask: t("mask"), back: t("back"), backMask: t("mask"))
        request.pose = CardPose(tiltX: tilt, tiltY: -tilt, flip: flip)
        request.canvas.size = CanvasSettings.Size(width: canvas.0, height: canvas.1)
        request.output.depth = depth
        return FrameJob(row: row, output: "\(directory)/out/\(row).png", request: request,
                        record: OutputRecord(kira: "test", values: ["row=\(row)"], textures: [:]),
                        recordPath: "\(directory)/state/\(row).kira-batch")
    }

    /// Frames of two cards, interleaved, in batches of two: each file is what rendering it alone
    /// writes, and its record is up to date.
    @Test func framesAreThoseOfSingleRenders() throws {
        let jobs = [job(1, art: "art1", tilt: 5), job(2, art: "art2", tilt: 5), job(3, art: "art1", tilt: -7, flip: 150),
                    job(4, art: "art1", tilt: 12), job(5, art: "art2", tilt: 0, depth: 16)]
        let renderer = CatalogueRenderer(threads: 2, batchSize: 2)
        var outcomes: [Int: CatalogueRenderer.Outcome] = [:]
        let cards = renderer.render(jobs) { outcomes[$0] = $1 }
        #expect(outcomes.count == jobs.count && outcomes.values.allSatisfy { $0 == .rendered })
        #expect(cards == 3)  // art1, art2 at 8 bits, art2 at 16 bits
        #expect(renderer.cache.decodes == 4)
        try expectSingleRenders(jobs, cache: renderer.cache)
    }

    /// Many frames in flight at once, of both depths and several canvas sizes (canvases are reused
    /// between frames), through a pipeline of small batches: each job is reported exactly once and
    /// each file is still what rendering it alone writes.
    @Test func manyFramesInFlightStayThoseOfSingleRenders() throws {
        let sizes = [(40, 48), (52, 36), (40, 48), (33, 41)]
        let jobs = (0..<36).map { i in
            job(i, art: i % 3 == 0 ? "art2" : "art1", tilt: Double(i % 9) - 4, flip: i % 5 == 0 ? 120 : 0,
                depth: i % 7 == 0 ? 16 : 8, canvas: sizes[i % sizes.count])
        }
        let renderer = CatalogueRenderer(threads: 2, batchSize: 3)
        var reports: [Int: Int] = [:]
        renderer.render(jobs) { index, outcome in
            reports[index, default: 0] += 1
            #expect(outcome == .rendered, "job \(index)")
        }
        #expect(reports.count == jobs.count && reports.values.allSatisfy { $0 == 1 })
        try expectSingleRenders(jobs, cache: renderer.cache)
    }

    /// Each job's file is what rendering it alone writes, and its record is up to date.
    func expectSingleRenders(_ jobs: [FrameJob], cache: TextureCache) throws {
        for job in jobs {
            let load = { try CardFace(art: try PNGCodec.read($0), mask: try PNGCodec.read($1)) }
            let card = job.request.card
            let scene = try FrameScene(front: try load(card.art!, card.mask!), back: try load(card.back!, card.backMask!),
                                   pose: job.request.pose, canvasSize: (job.request.canvas.size!.width, job.request.canvas.size!.height))
            let expected: [UInt8]
            if job.request.output.depth == 16 {
                var image = RGBAImage<UInt16>()
                try FrameRenderer(threads: 1).render(scene, into: &image)
                expected = try PNGCodec.encode(image)
            } else {
                var image = RGBAImage<UInt8>()
                try FrameRenderer(threads: 1).render(scene, into: &image)
                expected = try PNGCodec.encode(image)
            }
            #expect(try FileIO.read(job.output) == expected, "row \(job.row)")
            var record = job.record
            for (role, path) in job.request.card.byRole { record.textures[role] = try cache.hash(of: path) }
            let stored = try #require(OutputRecord.read(at: job.recordPath), "row \(job.row)")
            #expect(record.isUpToDate(output: job.output, stored: stored), "row \(job.row)")
        }
    }

    @Test func aBadTextureFailsOnlyItsRows() throws {
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: directory + "/textures/bad.png"))
        let jobs = [job(1, art: "art1", tilt: 5), job(2, art: "bad", tilt: 5), job(3, art: "missing", tilt: 1), job(4, art: "art1", tilt: 9)]
        var outcomes: [Int: CatalogueRenderer.Outcome] = [:]
        CatalogueRenderer(threads: 2).render(jobs) { outcomes[$0] = $1 }
        #expect(outcomes[0] == .rendered && outcomes[3] == .rendered)
        guard case .failed(let bad)? = outcomes[1], case .failed(let missing)? = outcomes[2] else {
            Issue.record("bad rows did not fail: \(outcomes)")
            return
        }
        #expect(bad.contains("bad.png"), "\(bad)")
        #expect(missing.contains("missing.png") && missing.contains("no such file"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: jobs[1].output))
    }

    @Test func anUnwritableOutputFailsAlone() throws {
        // The output's folder is a file.
        try Data().write(to: URL(fileURLWithPath: directory + "/blocker"))
        var blocked = job(1, art: "art1", tilt: 5)
        blocked.output = directory + "/blocker/a.png"
        let jobs = [blocked, job(2, art: "art1", tilt: 3)]
        var outcomes: [Int: CatalogueRenderer.Outcome] = [:]
        CatalogueRenderer(threads: 2).render(jobs) { outcomes[$0] = $1 }
        #expect(outcomes[1] == .rendered)
        guard case .failed(let reason)? = outcomes[0] else {
            Issue.record("unwritable output did not fail")
            return
        }
        #expect(reason.contains("blocker"), "\(reason)")
    }

    /// A row whose frame would not fit the memory budget fails alone, with the reason `kira
    /// render` gives for it; the rows beside it render.
    @Test func aFrameOverTheMemoryBudgetFailsAlone() throws {
        let jobs = [job(1, art: "art1", tilt: 5), job(2, art: "art1", tilt: 3, canvas: (4000, 4000)), job(3, art: "art1", tilt: 1)]
        var outcomes: [Int: CatalogueRenderer.Outcome] = [:]
        CatalogueRenderer(threads: 2, budget: MemoryBudget(bytes: 32 << 20)).render(jobs) { outcomes[$0] = $1 }
        #expect(outcomes[0] == .rendered && outcomes[2] == .rendered)
        let expected = #expect(throws: RequestError.self) { try jobs[1].request.prepare(writingTo: jobs[1].output, budget: MemoryBudget(bytes: 32 << 20)) }
        #expect(outcomes[1] == .failed(expected?.description ?? "(kira render accepted it)"))
        #expect(!FileManager.default.fileExists(atPath: jobs[1].output))
    }
}
