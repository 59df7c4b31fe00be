import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Every texture file that any row of a manifest reads, told apart by device and inode.
///
/// A row's own output is checked against its own textures by `kira render`'s check; this one
/// covers the other rows: a row whose output is another row's art would destroy that art, under
/// any name or link, and in any shard (all shards of a manifest read the same files, at the
/// same time).
package struct BatchInputFiles {
    private var textures: [FileIdentity: (path: String, row: Int)] = [:]

    package init(_ manifest: Manifest) {
        var seen: Set<String> = []
        for row in manifest.rows {
            for column in CataloguePlan.textureColumns {
                guard let value = row.values[column] else { continue }
                let path = manifest.resolve(value)
                // Each path is looked up once: a catalogue names few textures in many rows.
                guard seen.insert(path).inserted, let identity = FileIdentity(path) else { continue }
                if textures[identity] == nil { textures[identity] = (path, row.number) }
            }
        }
    }

    /// The texture (and the first row that reads it) that is the same file as `path`, if any.
    package func texture(sameFileAs path: String) -> (path: String, row: Int)? {
        FileIdentity(path).flatMap { textures[$0] }
    }
}

/// A file's device and inode; nil when it does not exist (nothing there can be destroyed).
private struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
