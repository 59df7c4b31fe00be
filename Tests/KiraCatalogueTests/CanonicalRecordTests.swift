import Foundation
@testable import KiraCatalogue
import KiraImage
import KiraRequest
import Testing

/// A row is recorded and checked as any front end's request is: by the canonical values and the
/// library's prepare step.
@Suite struct CanonicalRecordTests {
    static func job(_ values: [String: String]) throws -> FrameJob {
        let manifest = Manifest(path: "cat/m.csv", directory: "cat", format: .csv, rows: [])
        return try CataloguePlan.job(for: ManifestRow(number: 2, values: values), in: manifest, kiraVersion: "test",
                                     store: RecordStore(directory: "cat/.kira-batch"))
    }

    /// `8.0` and `8`, `TRUE` and `1`, a default given or left out: one frame, one record.
    @Test func equalRequestsHaveEqualRecords() throws {
        let spellings: [[String: String]] = [
            ["output": "a.png", "tilt_x": "8.0", "crossfade": "TRUE", "depth": "8"],
            ["output": "a.png", "tilt_x": "8", "crossfade": "1"],
            ["output": "a.png", "tilt_x": " 8", "crossfade": "yes", "flip": "0"],
        ]
        let records = try spellings.map { try Self.job($0).record.values }
        #expect(records[0] == ["crossfade=true", "tilt_x=8"])
        #expect(Set(records.map { $0.joined(separator: "&") }).count == 1, "\(records)")
    }

    /// A {width} over the canvas fails its row with the library's error; the others render.
    @Test func aScaleOverTheCanvasFailsItsRowAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-canonical-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let rows = [["output": directory + "/ok.png", "size": "32x40"], ["output": directory + "/wide.png", "size": "32x40", "width": "33"]]
        let jobs = try rows.map { try Self.job($0) }
        var outcomes: [Int: CatalogueRenderer.Outcome] = [:]
        CatalogueRenderer(threads: 1).render(jobs) { outcomes[$0] = $1 }
        #expect(outcomes[0] == .rendered)
        let expected = RequestError(parameter: "width", reason: "33 is wider than the 32×40 image; it scales down only (a larger {size} draws more detail)")
        #expect(outcomes[1] == .failed(expected.description))
        #expect(!FileManager.default.fileExists(atPath: directory + "/wide.png"))
    }
}
