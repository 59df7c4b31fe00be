import KiraFiles
import KiraImage

/// Every file a batch reads: the manifest, and each texture that any row of it names, told
/// apart as ``/KiraFiles/FileIdentity`` tells files apart (device and inode: any name or link).
///
/// A row's own output is checked against its own textures by `kira render`'s check; this one
/// covers the manifest and the other rows: a row whose output is the manifest or another row's
/// art would destroy it, under any name or link, and in any shard (all shards of a manifest read
/// the same files, at the same time).
package struct BatchInputFiles {
    private var files: [FileIdentity: (path: String, row: Int?)] = [:]

    package init(_ manifest: Manifest) {
        if let identity = FileIdentity(manifest.path) { files[identity] = (manifest.path, nil) }
        var seen: Set<String> = []
        for row in manifest.rows {
            for column in CataloguePlan.textureColumns {
                guard let value = row.values[column] else { continue }
                let path = manifest.resolve(value)
                // Each path is looked up once: a catalogue names few textures in many rows.
                guard seen.insert(path).inserted, let identity = FileIdentity(path) else { continue }
                if files[identity] == nil { files[identity] = (path, row.number) }
            }
        }
    }

    /// What `output` would overwrite ("the manifest m.csv", "a.png, a texture of row 3"), if anything.
    package func overwritten(by output: String) -> String? {
        guard let identity = FileIdentity(output), let file = files[identity] else { return nil }
        return file.row.map { "\(QuotedValue.shown(file.path)), a texture of row \($0)" } ?? "the manifest \(QuotedValue.shown(file.path))"
    }
}
