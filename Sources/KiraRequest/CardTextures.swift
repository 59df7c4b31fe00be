import Dispatch
import KiraFiles
import KiraImage
import KiraPNG
import KiraRender
import KiraSamples

/// The files of a card: front art and mask, back art and mask. A file not given takes the default
/// ``load(read:)`` describes; with no art at all the card is the built-in sample card.
public struct CardTextures: Hashable, Sendable {
    public var art: String?
    public var mask: String?
    public var back: String?
    public var backMask: String?
    /// The front's foil map: the height map of foils that read one (``/KiraShader/FoilShader/readsHeight``).
    public var foilMap: String?

    public init(art: String? = nil, mask: String? = nil, back: String? = nil, backMask: String? = nil, foilMap: String? = nil) {
        self.art = art
        self.mask = mask
        self.back = back
        self.backMask = backMask
        self.foilMap = foilMap
    }

    static let parameters: [RequestParameter<CardTextures>] = [
        .path("art", \.art, help: "Front art (PNG; converted to sRGB if it says it is in another space; default: the built-in sample card)."),
        .path("mask", \.mask, help: "Front holo mask (PNG of the art's aspect ratio; white = full shine, grey less, colour tints; transparent = none; default: the art's alpha)."),
        .path("back", \.back, help: "Back art (PNG; default: a plain back in the art's mean colour)."),
        .path("back_mask", \.backMask, help: "Back holo mask (PNG of the back's aspect ratio; default: the back art's alpha)."),
        .path("foil_map", \.foilMap, help: FaceInput.foilMapHelp),
    ]

    /// Each file given, with its role (`art`, `mask`, `back`, `back_mask`, `foil_map`: the
    /// parameters' names).
    public var byRole: [(role: String, path: String)] {
        [("art", art), ("mask", mask), ("back", back), ("back_mask", backMask), ("foil_map", foilMap)].compactMap { role, path in
            path.map { (role, $0) }
        }
    }

    /// How the file of the parameter `role` is read: art as colour, masks as data.
    public static func textureRole(of role: String) -> TextureRole {
        role == "art" || role == "back" ? .color : .data
    }

    /// Each file given with how it is read, each pair once.
    public var files: [(path: String, role: TextureRole)] {
        var seen = Set<FileKey>()
        return byRole.compactMap { role, path in
            let key = FileKey(path: path, role: Self.textureRole(of: role))
            return seen.insert(key).inserted ? (path, key.role) : nil
        }
    }

    private struct FileKey: Hashable {
        let path: String
        let role: TextureRole
    }

    /// The files given.
    public var paths: [String] { byRole.map(\.path) }

    /// The card's two faces, each file read through `read`:
    /// - no art: the built-in sample card (its front and back, and their masks unless given);
    /// - art without a mask: the art shines where it is opaque (its alpha is the mask);
    /// - art without a back: a plain back in the art's mean colour, without shine (`PlainBack`);
    /// - a back without a back mask: the back shines where it is opaque;
    /// - a foil map is the front's; without one, the sample card's is its art.
    /// Masks and the foil map fit their art by ``FaceMap/fitted(_:artWidth:artHeight:parameter:)``'s rules. The
    /// sample card's textures are never mixed into a user's card. Files are read through `read`
    /// (art as ``TextureRole/color``, masks as ``TextureRole/data``) in the order art, mask, back,
    /// back mask, foil map, so the first that fails is the one reported.
    public func load(read: (String, TextureRole) throws -> AnyRGBAImage) throws -> LoadedCard {
        let artImage = try art.map { try read($0, .color) }, maskImage = try mask.map { try read($0, .data) }
        let backImage = try back.map { try read($0, .color) }, backMaskImage = try backMask.map { try read($0, .data) }
        let foilMapImage = try foilMap.map { try read($0, .data) }
        var front = try FaceInput.resolve(art: art.map { ($0, artImage!) }, mask: maskImage, maskParameter: "mask") { BuiltInCard.front }
        try front.use(foilMap: foilMapImage)
        if back == nil, art != nil {
            let plain = PlainBack(for: front.face.art)
            let mask = try backMaskImage.map { map throws(RequestError) in
                try FaceMap.fitted(map, artWidth: plain.image.width, artHeight: plain.image.height, parameter: "back_mask")
            }
            return LoadedCard(front: front, back: FaceInput(
                face: try FaceInput.face(art: .rgba8(plain.image), mask: mask ?? .rgba8(PlainBack.noShine)),
                assumption: "no {back}: a plain back in the art's mean colour \(plain.hex)"))
        }
        var backFace = try FaceInput.resolve(art: back.map { ($0, backImage!) }, mask: backMaskImage, maskParameter: "back_mask") {
            BuiltInCard.back
        }
        // The back is drawn over the card's shape, which the front art sets; unlike a mask, which
        // must line up with its art, a back of another shape is a picture stretched to fit: said,
        // not refused.
        let (frontArt, backArt) = (front.face.art, backFace.face.art)
        if !FaceMapShape.fits(map: SIMD2(backArt.width, backArt.height), art: SIMD2(frontArt.width, frontArt.height)) {
            backFace.note("{back} is \(backArt.width)×\(backArt.height) and the art \(frontArt.width)×\(frontArt.height): "
                          + "the back is stretched to the card's shape (give a back of the art's aspect ratio to keep its own)")
        }
        return LoadedCard(front: front, back: backFace)
    }

    /// An upper bound of the bytes loading the card takes (``load(read:)``), from the files' PNG
    /// headers alone, nothing decoded: each file's bytes and decoded image, read in its roles,
    /// and each image made from them — a mask from an art's alpha, a plain back in the art's
    /// mean colour, an 8-bit copy of a 16-bit art to make either, a mask or foil map multiplied
    /// by its alpha and upscaled to its art. A file in `counted` (by device and inode) is not
    /// counted again, as a texture cache decodes it once; the card's files are added to it. A
    /// stream, or a file that is not a PNG, counts nothing here: it is refused or bounded as it
    /// is read. Never traps: a header may claim 2³²−1 pixels a side (the sum saturates).
    ///
    /// - Parameter counted: the files already counted, by ``/KiraFiles/FileIdentity`` (or path).
    /// - Throws: ``/KiraFiles/ImageFileError`` for a file that cannot be opened.
    public func estimatedBytes(counted: inout Set<String>) throws(ImageFileError) -> Int {
        var headers: [String: PNGHeader] = [:]
        var total = 0
        for (path, _) in files {
            guard let (header, fileBytes) = try PNGHeader.read(path) else { continue }
            headers[path] = header
            let key = FileIdentity(path).map { "\($0)" } ?? "path:" + path
            // A file read in two roles (art and mask) is decoded twice: counted once per role here.
            let first = counted.insert(key).inserted || files.filter { $0.path == path }.count > 1
            if first { total = MemoryBudget.sum(total, MemoryBudget.sum(fileBytes, header.decodedBytes)) }
        }
        func rgba8(_ header: PNGHeader) -> Int {
            MemoryBudget.imageBytes(width: header.width, height: header.height, channelBytes: 1)
        }
        /// A face's derived images: the mask made from the art's alpha, or the given map fitted
        /// (a copy multiplied by its alpha, and one upscaled to the art when smaller).
        func fitted(_ map: String?, art: PNGHeader?) -> Int {
            guard let map else {
                guard let art else { return 0 }
                // The art's alpha as a mask, through an 8-bit copy of a 16-bit art.
                return MemoryBudget.sum(rgba8(art), art.bitDepth == 16 ? rgba8(art) : 0)
            }
            guard let header = headers[map] else { return 0 }
            let channelBytes = header.bitDepth == 16 ? 2 : 1
            let upscaled = art.map { art in
                header.width < art.width ? MemoryBudget.imageBytes(width: art.width, height: art.height, channelBytes: channelBytes) : 0
            } ?? 0
            return MemoryBudget.sum(header.decodedBytes, upscaled)
        }
        let artHeader = art.flatMap { headers[$0] }
        total = MemoryBudget.sum(total, fitted(mask, art: artHeader))
        if let foilMap { total = MemoryBudget.sum(total, fitted(foilMap, art: artHeader)) }
        if back == nil, let artHeader {
            // A plain back of the art's size, through an 8-bit copy of a 16-bit art; its mask.
            total = MemoryBudget.sum(total, MemoryBudget.sum(rgba8(artHeader), artHeader.bitDepth == 16 ? rgba8(artHeader) : 0))
            if let backMask { total = MemoryBudget.sum(total, fitted(backMask, art: artHeader)) }
        } else if back != nil {
            total = MemoryBudget.sum(total, fitted(backMask, art: back.flatMap { headers[$0] }))
        }
        return total
    }

    /// ``load(read:)`` from the files (``TextureFile/read(_:role:)``), decoded all at once: a
    /// 1260×1760 PNG takes about 50 ms to decode and a card has up to four. Failures are reported
    /// as reading them one by one would. The files' bytes and decoded images must fit `budget`
    /// together, as their headers declare them: what does not is refused before anything is
    /// decoded.
    public func load(budget: MemoryBudget = .standard) throws -> LoadedCard {
        try budget.checkDecoding(paths)
        let files = self.files
        let decoded = Locked([Int: Result<(image: AnyRGBAImage, note: String?), any Error>]())
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let result = Result<(image: AnyRGBAImage, note: String?), any Error> { try TextureFile.readNoted(files[i].path, role: files[i].role, budget: budget) }
            decoded.withLock { $0[i] = result }
        }
        let images = decoded.withLock { $0 }
        func file(_ path: String, _ role: TextureRole) throws -> (image: AnyRGBAImage, note: String?) {
            try images[files.firstIndex { $0.path == path && $0.role == role }!]!.get()
        }
        var card = try load { path, role in try file(path, role).image }
        // Art converted to sRGB is said with the face it is on.
        if let art, let note = try file(art, .color).note { card.front.note(note) }
        if let back, let note = try file(back, .color).note { card.back.note(note) }
        return card
    }
}
