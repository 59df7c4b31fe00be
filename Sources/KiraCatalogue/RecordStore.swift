#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraFiles
import KiraImage
import KiraRequest
import KiraTextureCache

/// Where a catalogue keeps its ``OutputRecord``s: one state folder per manifest, out of the
/// output folders (which can then be uploaded as they are).
///
/// The default folder is `.NAME.kira-state` beside the manifest `NAME`, so two manifests in one
/// folder keep apart. A record is keyed by its output as the manifest writes it (relative to the
/// manifest's folder, `.` segments and repeated slashes aside), never by the path the process
/// reaches it by: shards that mount shared storage at different places agree on every record. The
/// record of key `K` is `DIR/XX/SHA.kira-batch`, `SHA` the SHA-256 of `K` and `XX` its first two
/// digits, so that no folder holds more than a few thousand records even for half a million rows.
///
/// Records written by earlier versions, `.NAME.kira-batch` beside each output
/// (``OutputRecord/path(for:)``), are still read where they are when the state folder has none.
public struct RecordStore: Sendable {
    /// The state folder.
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The default state folder of the manifest at `manifest`: `.NAME.kira-state` beside it.
    public static func defaultDirectory(forManifest manifest: String) -> String {
        let folder = FileIO.parentDirectory(of: manifest)
        let name = manifest.split(separator: "/").last.map(String.init) ?? manifest
        let state = ".\(name).kira-state"
        return folder == "." ? state : folder == "/" ? "/" + state : folder + "/" + state
    }

    /// The key of an output written as `value` in a manifest: `value` without `.` segments or
    /// repeated slashes (`./out//a.png` and `out/a.png` are one key). `..` is kept as written:
    /// without the file system it cannot be resolved.
    public static func key(_ value: String) -> String {
        let segments = value.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        return (value.hasPrefix("/") ? "/" : "") + segments.joined(separator: "/")
    }

    /// Where the record of the output keyed `key` is kept.
    public func path(forKey key: String) -> String {
        let hash = ContentHash.sha256(key)
        return "\(directory)/\(hash.prefix(2))/\(hash).kira-batch"
    }

    /// Creates the state folder when missing and checks that records can be written in it; the
    /// reason when not.
    public func prepare() throws(ImageFileError) {
        try FileIO.makeDirectories(directory)
        guard FileManager.default.isWritableFile(atPath: directory) else {
            throw ImageFileError(path: directory, reason: "cannot write in the folder (permission denied or read-only)")
        }
    }

    /// The stored record of `output` (the path it is reached by), kept at `recordPath` in the
    /// state folder, or else an old one beside the output.
    public static func read(at recordPath: String, output: String) -> OutputRecord? {
        OutputRecord.read(at: recordPath) ?? OutputRecord.read(at: OutputRecord.path(for: output))
    }
}
