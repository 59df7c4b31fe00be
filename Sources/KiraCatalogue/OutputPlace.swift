import KiraFiles
import KiraImage

/// Where an output path will write, as the system tells places apart, so that two rows naming
/// one file under different spellings — `./out//a.png`, a symbolically linked folder, a symbolic
/// link to the file — are found to be one output before anything renders.
///
/// A place is a folder (its device and inode: the nearest existing folder of the path, itself or
/// one above it) and the rest of the path below it, with `.`, `..` and repeated slashes taken
/// out — what does not exist yet cannot be a link, so the rest is compared as written. An
/// existing output is taken where its symbolic links lead, since writing goes through them. Hard
/// links are different places: an output is replaced by a new file under its name, so writing
/// one name leaves the other's file as it was.
enum OutputPlace: Hashable {
    case below(device: UInt64, inode: UInt64, rest: [String])
    /// No folder above the path could be read: the path, normalised.
    case unresolved(String)

    /// The place `path` writes. `folders` caches the nearest existing folder of each folder
    /// path seen (a catalogue puts many outputs in few folders).
    init(_ path: String, folders: inout [String: OutputPlace]) {
        let target = FileIO.realPath(path) ?? path
        let parent = FileIO.parentDirectory(of: target)
        let name = String(target.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        let folder: OutputPlace
        if let known = folders[parent] {
            folder = known
        } else {
            folder = Self.folder(parent)
            folders[parent] = folder
        }
        switch folder {
        case .below(let device, let inode, let rest): self = .below(device: device, inode: inode, rest: Self.normalised(rest + [name]))
        case .unresolved(let text): self = .unresolved(text + "/" + name)
        }
    }

    /// The nearest existing folder of `path` (itself, or one above) and the rest of the path.
    private static func folder(_ path: String) -> OutputPlace {
        var current = path
        var rest: [String] = []
        while true {
            if let folder = FileIdentity.node(current), folder.kind == .directory {
                return .below(device: folder.device, inode: folder.inode, rest: normalised(rest))
            }
            let parent = FileIO.parentDirectory(of: current)
            guard parent != current else { return .unresolved(Manifest.normalised(path)) }
            let last = current.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            rest.insert(last, at: 0)
            current = parent
        }
    }

    /// Path components without `.`, empty ones, and `x/..` pairs.
    private static func normalised(_ components: [String]) -> [String] {
        var parts: [String] = []
        for part in components {
            switch part {
            case "", ".": continue
            case "..": if parts.isEmpty || parts.last == ".." { parts.append(part) } else { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return parts
    }
}
