import Foundation
import KiraCatalogue
import KiraFiles
import KiraImage
import KiraTextureCache
import Testing

@Suite struct OutputRecordTests {
    /// Where earlier versions kept records (still read).
    @Test func oldRecordSitsBesideItsOutput() {
        #expect(OutputRecord.path(for: "out/cards/a.png") == "out/cards/.a.png.kira-batch")
        #expect(OutputRecord.path(for: "a.png") == ".a.png.kira-batch")
        #expect(OutputRecord.path(for: "/a.png") == "/.a.png.kira-batch")
        // Up to 243 bytes of name the record is .NAME.kira-batch (255 bytes); past that a hashed name.
        let longest = String(repeating: "é", count: 119) + "a.png"  // 243 bytes
        #expect(OutputRecord.path(for: "out/" + longest) == "out/.\(longest).kira-batch")
        let tooLong = String(repeating: "é", count: 119) + "ab.png"  // 244 bytes
        #expect(OutputRecord.path(for: "out/" + tooLong) == "out/.kira-batch-" + ContentHash.sha256(tooLong))
        #expect(OutputRecord.path(for: tooLong) == ".kira-batch-" + ContentHash.sha256(tooLong))
        #expect(OutputRecord.path(for: "out/x" + tooLong) != OutputRecord.path(for: "out/" + tooLong))
    }

    /// Outputs with names of up to 255 bytes (the longest a file system takes) keep a record and
    /// are up to date after writing.
    @Test(arguments: [243, 244, 250, 255])
    func longOutputNamesKeepARecord(length: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/" + String(repeating: "n", count: length - 4) + ".png"
        let record = OutputRecord(kira: "1.0", values: ["tilt_x=5"], textures: ["art": "aa"])
        let bytes: [UInt8] = [4, 5, 6]
        try record.write(to: OutputRecord.path(for: output), outputHash: ContentHash.sha256(bytes))
        try FileIO.writeAtomically(bytes, to: output)
        let stored = try #require(RecordStore.read(at: directory + "/state/none.kira-batch", output: output))
        #expect(record.isUpToDate(output: output, stored: stored))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 2)
    }

    @Test func upToDateOnlyWithTheSameInputsAndBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/a.png"
        let bytes: [UInt8] = [1, 2, 3]
        let record = OutputRecord(kira: "1.0", values: ["tilt_x=5"], textures: ["art": "aa", "mask": "bb"])
        let store = RecordStore(directory: directory + "/state")
        try store.prepare()
        let recordPath = store.path(forKey: "a.png")
        try FileIO.makeDirectories(FileIO.parentDirectory(of: recordPath))
        #expect(RecordStore.read(at: recordPath, output: output) == nil)  // nothing yet
        func isUpToDate(_ record: OutputRecord) -> Bool {
            RecordStore.read(at: recordPath, output: output).map { record.isUpToDate(output: output, stored: $0) } ?? false
        }

        try record.write(to: recordPath, outputHash: ContentHash.sha256(bytes))
        #expect(!isUpToDate(record))  // record, but no output (killed in between)
        try FileIO.writeAtomically(bytes, to: output)
        #expect(isUpToDate(record))

        var changed = record
        changed.textures["art"] = "cc"
        #expect(!isUpToDate(changed))
        changed = record
        changed.values = ["tilt_x=6"]
        #expect(!isUpToDate(changed))
        changed = record
        changed.kira = "1.1"
        #expect(!isUpToDate(changed))

        try FileIO.writeAtomically([1, 2, 4], to: output)  // the output changed since
        #expect(!isUpToDate(record))
    }

    /// The state folder's record wins over an old one beside the output, which is read only
    /// when the state folder has none.
    @Test func theStateFolderComesBeforeAnOldRecord() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kira-record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/a.png"
        let old = OutputRecord(kira: "0.9", values: [], textures: [:])
        try old.write(to: OutputRecord.path(for: output), outputHash: "x")
        let store = RecordStore(directory: directory + "/state")
        let recordPath = store.path(forKey: "a.png")
        #expect(RecordStore.read(at: recordPath, output: output) == OutputRecord(kira: "0.9", values: [], textures: [:], output: "x"))
        try FileIO.makeDirectories(FileIO.parentDirectory(of: recordPath))
        try OutputRecord(kira: "1.0", values: [], textures: [:], path: "a.png").write(to: recordPath, outputHash: "y")
        #expect(RecordStore.read(at: recordPath, output: output)?.kira == "1.0")
    }

    /// Keys are the outputs as the manifest writes them, tidied; the state folder sits beside the
    /// manifest, named after it; records spread over 256 subfolders.
    @Test func keysAndPlaces() {
        #expect(RecordStore.key("./out//cards/./a.png") == "out/cards/a.png")
        #expect(RecordStore.key("/srv/out/a.png") == "/srv/out/a.png")
        #expect(RecordStore.key("../out/a.png") == "../out/a.png")
        #expect(RecordStore.defaultDirectory(forManifest: "cards.csv") == ".cards.csv.kira-state")
        #expect(RecordStore.defaultDirectory(forManifest: "/mnt/a/cat/cards.csv") == "/mnt/a/cat/.cards.csv.kira-state")
        #expect(RecordStore.defaultDirectory(forManifest: "/cards.csv") == "/.cards.csv.kira-state")
        let hash = ContentHash.sha256("out/a.png")
        #expect(RecordStore(directory: "s").path(forKey: "out/a.png") == "s/\(hash.prefix(2))/\(hash).kira-batch")
    }
}
