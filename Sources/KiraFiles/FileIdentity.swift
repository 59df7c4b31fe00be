#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path reaches, as the system tells files apart: two names of one file (hard
/// links, symbolic links, `./x` and `x`) have one identity.
public enum FileIdentity: Hashable, Sendable {
    /// An existing regular file: its device and inode.
    case file(device: UInt64, inode: UInt64)
    /// A name that does not exist yet: the directory it would be created in, and the name.
    case entry(directoryDevice: UInt64, directoryInode: UInt64, name: [UInt8])

    /// The identity of what `path` names, or nil for what cannot be mixed up with a file being
    /// written: `-`, a device, a pipe, a directory, or a path whose directory does not exist.
    public init?(_ path: String) {
        if path == FileIO.standardStream { return nil }
        if let node = Self.node(path) {
            guard node.kind == .regularFile else { return nil }
            self = .file(device: node.device, inode: node.inode)
            return
        }
        // A symbolic link to nothing yet is written through (FileIO.writeAtomically refuses it).
        guard let directory = Self.node(FileIO.parentDirectory(of: path)) else { return nil }
        let name = PathBytes.bytes(String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""))
        self = .entry(directoryDevice: directory.device, directoryInode: directory.inode, name: name)
    }

    /// What an existing path reaches, symbolic links followed: the one place Kira asks the system
    /// which file a name is (outputs, inputs, the texture cache, a catalogue's output folders).
    package struct Node: Hashable, Sendable {
        package enum Kind: Sendable { case regularFile, directory, other }
        package var device: UInt64
        package var inode: UInt64
        package var kind: Kind
    }

    /// The file `path` reaches (its bytes as ``PathBytes`` says), or nil when nothing is there.
    package static func node(_ path: String) -> Node? {
        var status = stat()
        guard PathBytes.withCString(path, { stat($0, &status) }) == 0 else { return nil }
        let kind: Node.Kind = switch status.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFDIR: .directory
        default: .other
        }
        return Node(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), kind: kind)
    }
}

extension FileIO {
    /// Refuses, before any work, a command whose outputs would overwrite one of its inputs or
    /// one another: every path is compared by device and inode (or, where it does not exist
    /// yet, by directory and name), so hard links, symbolic links and other spellings of a
    /// name are caught. Standard input may be read only once and standard output written once.
    ///
    /// - Throws: ``ImageFileError`` naming the output and what it collides with.
    public static func checkDistinct(inputs: [String], outputs: [String]) throws(ImageFileError) {
        if inputs.filter({ $0 == standardStream }).count > 1 {
            throw ImageFileError(path: displayName(standardStream), reason: "can be read only once")
        }
        if outputs.filter({ $0 == standardStream }).count > 1 {
            throw ImageFileError(path: displayName(standardStream, output: true), reason: "can take only one of the outputs")
        }
        var seen: [FileIdentity: (path: String, isInput: Bool)] = [:]
        for input in inputs {
            if let identity = FileIdentity(input), seen[identity] == nil { seen[identity] = (input, true) }
        }
        for output in outputs {
            guard let identity = FileIdentity(output) else { continue }
            if let earlier = seen[identity] {
                throw ImageFileError(
                    path: output,
                    reason: earlier.isInput ? "the output would overwrite the input \(QuotedValue.shown(earlier.path))"
                        : "the same file as the output \(QuotedValue.shown(earlier.path))")
            }
            seen[identity] = (output, false)
        }
    }
}
