#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraFiles
import KiraImage
import KiraRequest
import KiraTextureCache

/// What an output frame was made from, kept in the catalogue's state folder (``RecordStore``) so
/// that a re-run can tell whether it is up to date: Kira's version, the row's values, the content
/// hashes of the textures, and the hash of the output's own bytes.
///
/// A record is one small JSON object. It is written (atomically) *before* the output: a process killed between the two leaves a record
/// whose output hash the file on disk does not have, so the row is rendered again. An output is
/// up to date when its record's inputs equal the row's and the file's SHA-256 equals the record's.
public struct OutputRecord: Codable, Sendable, Equatable {
    /// Kira's version.
    public var kira: String
    /// The row's values that change the picture, as `column=value`, sorted (paths left out: the
    /// textures count by their content).
    public var values: [String]
    /// Texture role (`art`, `mask`, `back`, `back_mask`, `foil_map`) → SHA-256 of the file.
    public var textures: [String: String]
    /// SHA-256 of the output file; empty while the inputs are only being compared.
    public var output: String
    /// The output as the manifest writes it (the record's key), for whoever reads the state
    /// folder; absent from records written beside their outputs.
    public var path: String?

    public init(kira: String, values: [String], textures: [String: String], output: String = "", path: String? = nil) {
        self.kira = kira
        self.values = values
        self.textures = textures
        self.output = output
        self.path = path
    }

    /// The longest file name (bytes) most file systems take (Linux's `NAME_MAX`).
    static let maxNameLength = 255

    /// Where earlier versions kept the record of `output` (still read, never written): `.NAME.kira-batch` beside it, or, when that name
    /// would be too long (an output name of 244 bytes or more), `.kira-batch-` and the SHA-256 of
    /// the output's name, which fits and names one output only.
    public static func path(for output: String) -> String {
        let slash = output.lastIndex(of: "/")
        let folder = slash.map { String(output[...$0]) } ?? ""
        let name = slash.map { String(output[output.index(after: $0)...]) } ?? output
        let record = ".\(name).kira-batch"
        if record.utf8.count <= maxNameLength { return folder + record }
        return folder + ".kira-batch-" + ContentHash.sha256(name)
    }

    /// Whether `output` exists, its record `stored` has the same inputs as `self`, and it has the
    /// bytes `stored` says.
    public func isUpToDate(output path: String, stored: OutputRecord) -> Bool {
        guard stored.sameInputs(as: self) else { return false }
        guard let bytes = FileIO.readRegularFile(path) else { return false }
        return ContentHash.sha256(bytes) == stored.output
    }

    /// Whether the two records describe the same inputs (the output hash aside).
    public func sameInputs(as other: OutputRecord) -> Bool {
        kira == other.kira && values == other.values && textures == other.textures
    }

    /// Writes the record, with `outputHash`, atomically at `recordPath`.
    public func write(to recordPath: String, outputHash: String) throws(ImageFileError) {
        var record = self
        record.output = outputHash
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else {
            throw ImageFileError(path: recordPath, reason: "cannot encode the record")
        }
        // Replaced, never written through: a link planted under the record's name must not
        // make the batch overwrite the file it points to.
        try FileIO.writeAtomically(Array(data) + [UInt8(ascii: "\n")], to: recordPath, rule: .kiraNamed)
    }

    /// The record stored at `recordPath`, if there is a readable one: a regular file, not a link
    /// (a FIFO under its name must not hang the batch).
    public static func read(at recordPath: String) -> OutputRecord? {
        guard let bytes = FileIO.readRegularFile(recordPath, limit: 1 << 20, followLinks: false) else { return nil }
        return try? JSONDecoder().decode(OutputRecord.self, from: Data(bytes))
    }
}
