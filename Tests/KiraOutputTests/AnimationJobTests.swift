import Foundation
import KiraFiles
import KiraOutput
import KiraRequest
import Testing

/// The animation job's checks and defaults, in-process: what `kira animate` used to decide itself.
@Suite struct AnimationJobTests {
    static func request(_ values: [(String, String)]) throws -> AnimationRequest {
        try AnimationRequest(values: [("preset", "seed000-flip"), ("fps", "4"), ("size", "64x80")] + values)
    }

    @Test func withoutOutputsTheFramesGoToThePresetsFolder() throws {
        let request = try Self.request([])
        let job = try AnimationJob(request, outputs: AnimationOutputs())
        // The name a user types (`flip-two-faces`), not the seed's alias.
        let folder = "output/" + request.preset!.name
        #expect(job.frameDirectory == folder && folder != "output/seed000-flip")
        #expect(job.closingNotes.last?.kind == .defaultOutput)
        #expect(job.closingNotes.last?.text == "wrote \(job.scenes.count) frames to \(folder)/ "
                + "(the default: no {output_dir}, {apng}, {sheet} or {video} given)")
        #expect(job.batchSize >= 1)
    }

    @Test func aScaleOverTheCanvasIsRefusedForFrames() throws {
        let directory = NSTemporaryDirectory() + "kira-job-\(UUID().uuidString)"
        let error = #expect(throws: RequestError.self) {
            _ = try AnimationJob(try Self.request([("width", "65")]), outputs: AnimationOutputs(directory: directory))
        }
        #expect(error?.parameter == "width")
        #expect(!FileIO.isDirectory(directory))
    }

    /// A sheet takes frames as rendered: a width for numbered frames does not apply to it.
    @Test func aSheetAloneIsNotScaled() throws {
        let sheet = NSTemporaryDirectory() + "kira-job-\(UUID().uuidString).png"
        let job = try AnimationJob(try Self.request([]), outputs: AnimationOutputs(sheet: sheet))
        #expect(job.frameDirectory == nil)
        #expect(job.closingNotes.allSatisfy { $0.kind != .defaultOutput })
    }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let art = NSTemporaryDirectory() + "kira-job-art-\(UUID().uuidString).png"
        #expect(FileManager.default.createFile(atPath: art, contents: Data([1])))
        defer { try? FileManager.default.removeItem(atPath: art) }
        #expect(throws: ImageFileError.self) {
            _ = try AnimationJob(try Self.request([("art", art)]), outputs: AnimationOutputs(apng: art))
        }
    }
}
