import Foundation
import KiraCatalogue
import KiraImage
import Testing

@Suite struct OutputRecordTests {
    @Test func sha256MatchesKnownVectors() {
        // FIPS 180-2 examples.
        #expect(ContentHash.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentHash.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func recordSitsBesideItsOutput() {
        #expect(OutputRecord.path(for: "out/cards/a.png") == "out/cards/.a.png.kira-batch")
        #expect(OutputRecord.path(for: "a.png") == ".a.png.kira-batch")
        #expect(OutputRecord.path(for: "/a.png") == "/.a.png.kira-batch")
    }

    @Test func upToDateOnlyWithTheSameInputsAndBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/a.png"
        let bytes: [UInt8] = [1, 2, 3]
        let record = OutputRecord(kira: "1.0", values: ["tilt_x=5"], textures: ["art": "aa", "mask": "bb"])
        #expect(!record.isUpToDate(output: output))  // nothing yet

        try record.write(for: output, outputHash: ContentHash.sha256(bytes))
        #expect(!record.isUpToDate(output: output))  // record, but no output (killed in between)
        try FileIO.writeAtomically(bytes, to: output)
        #expect(record.isUpToDate(output: output))

        var changed = record
        changed.textures["art"] = "cc"
        #expect(!changed.isUpToDate(output: output))
        changed = record
        changed.values = ["tilt_x=6"]
        #expect(!changed.isUpToDate(output: output))
        changed = record
        changed.kira = "1.1"
        #expect(!changed.isUpToDate(output: output))

        try FileIO.writeAtomically([1, 2, 4], to: output)  // the output changed since
        #expect(!record.isUpToDate(output: output))
    }
}
