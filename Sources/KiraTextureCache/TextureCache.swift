import KiraFiles
import KiraImage
import KiraPNG
import KiraRequest

/// Textures decoded once per file per process, within a memory budget.
///
/// A catalogue names the same few files (a frame, a foil mask, a card back) over and over; each
/// distinct file is read and decoded once, and the decoded images are kept, least recently used
/// first out, while they fit in `budget` bytes. The same image value is returned for the same file,
/// so frames of one card share their face buffers, which is what lets ``FrameRenderer`` shade
/// them in one sweep. Content hashes (SHA-256) come from the very bytes that were decoded. Files
/// are told apart by device and inode, so `art/a.png`, `./art//a.png` and a link to it are one file.
/// A texture is a regular file (or a link to one): a FIFO, a device or a socket is refused without
/// being read or waited on.
public final class TextureCache {
    /// A decoded texture and the hash of the file it came from.
    public struct Texture {
        public let image: AnyRGBAImage
        public let hash: String
    }

    /// Bytes of decoded images kept at most.
    public let budget: Int
    private var textures: [String: (texture: Texture, lastUse: Int)] = [:]
    private var hashes: [String: String] = [:]
    private var bytesHeld = 0
    private var clock = 0
    /// Files read and decoded so far (a file evicted and needed again counts twice).
    public private(set) var decodes = 0

    public init(budget: Int = 1 << 30) {
        self.budget = budget
    }

    /// The SHA-256 of the file at `path`, read once per process (the file is not decoded).
    public func hash(of path: String) throws(ImageFileError) -> String {
        let key = Self.key(path)
        if let hash = hashes[key] { return hash }
        let hash = ContentHash.sha256(try FileIO.readRegular(path))
        hashes[key] = hash
        return hash
    }

    /// The decoded texture at `path`, read as `role` (``TextureFile``: art in sRGB, masks as
    /// stored); a file read in both roles is held once for each.
    public func texture(at path: String, role: TextureRole = .data) throws(ImageFileError) -> Texture {
        clock += 1
        let file = Self.key(path)
        let key = (role == .color ? "color " : "data ") + file
        if let entry = textures[key] {
            textures[key]?.lastUse = clock
            return entry.texture
        }
        // A regular file only, refused at once otherwise: a FIFO with no writer would hold the
        // whole catalogue, a link to /dev/zero fill its memory.
        let bytes = try FileIO.readRegular(path)
        // From the header, before it is decoded: one texture must fit the whole cache.
        if let header = PNGHeader(bytes: bytes), header.decodedBytes > budget {
            throw ImageFileError(path: path, reason: "image is \(header.width)×\(header.height): decoded it needs \(MemoryBudget.describe(header.decodedBytes)), over the \(MemoryBudget.describe(budget)) texture cache")
        }
        let texture = Texture(image: try TextureFile.decode(bytes, name: path, role: role), hash: ContentHash.sha256(bytes))
        decodes += 1
        hashes[file] = texture.hash
        let size = Self.byteCount(texture.image)
        while bytesHeld + size > budget, let oldest = textures.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            bytesHeld -= Self.byteCount(oldest.value.texture.image)
            textures[oldest.key] = nil
        }
        if size <= budget {
            textures[key] = (texture, clock)
            bytesHeld += size
        }
        return texture
    }

    /// Bytes of decoded images held now.
    public var heldBytes: Int { bytesHeld }

    /// The file's identity: device and inode when it can be looked up (else the path as given;
    /// reading it will then fail with the reason).
    private static func key(_ path: String) -> String {
        guard let node = FileIdentity.node(path) else { return "path:" + path }
        return "\(node.device):\(node.inode)"
    }

    private static func byteCount(_ image: AnyRGBAImage) -> Int {
        image.width * image.height * 4 * (image.bitDepth / 8)
    }
}
