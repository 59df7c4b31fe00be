import Dispatch
import KiraImage
import KiraRender

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
        .path("art", \.art, help: "Front art (PNG; default: the built-in sample card)."),
        .path("mask", \.mask, help: "Front holo mask (PNG, any size; white = full shine; default: the art's alpha)."),
        .path("back", \.back, help: "Back art (PNG; default: a plain back in the art's mean colour)."),
        .path("back_mask", \.backMask, help: "Back holo mask (PNG; default: the back art's alpha)."),
        .path("foil_map", \.foilMap, help: FaceInput.foilMapHelp),
    ]

    /// Each file given, with its role (`art`, `mask`, `back`, `back_mask`, `foil_map`: the
    /// parameters' names).
    public var byRole: [(role: String, path: String)] {
        [("art", art), ("mask", mask), ("back", back), ("back_mask", backMask), ("foil_map", foilMap)].compactMap { role, path in
            path.map { (role, $0) }
        }
    }

    /// The files given.
    public var paths: [String] { byRole.map(\.path) }

    /// The card's two faces, each file read through `read`:
    /// - no art: the built-in sample card (its front and back, and their masks unless given);
    /// - art without a mask: the art shines where it is opaque (its alpha is the mask);
    /// - art without a back: a plain back in the art's mean colour, without shine (`PlainBack`);
    /// - a back without a back mask: the back shines where it is opaque.
    /// - a foil map is the front's, of the art's aspect ratio; without one, the sample card's is
    ///   its art.
    /// The sample card's textures are never mixed into a user's card. Files are read in the order
    /// art, mask, back, back mask, foil map, so the first that fails is the one reported.
    public func load(read: (String) throws -> AnyRGBAImage) throws -> LoadedCard {
        let artImage = try art.map { try read($0) }, maskImage = try mask.map { try read($0) }
        let backImage = try back.map { try read($0) }, backMaskImage = try backMask.map { try read($0) }
        let foilMapImage = try foilMap.map { try read($0) }
        var front = FaceInput.resolve(art: art.map { ($0, artImage!) }, mask: maskImage, maskParameter: "mask") { BuiltInCard.front }
        try front.use(foilMap: foilMapImage)
        if back == nil, art != nil {
            let plain = PlainBack(for: front.face.art)
            return LoadedCard(front: front, back: FaceInput(
                face: CardFace(art: .rgba8(plain.image), mask: backMaskImage ?? .rgba8(PlainBack.noShine)),
                assumption: "no {back}: a plain back in the art's mean colour \(plain.hex)"))
        }
        let backFace = FaceInput.resolve(art: back.map { ($0, backImage!) }, mask: backMaskImage, maskParameter: "back_mask") {
            BuiltInCard.back
        }
        return LoadedCard(front: front, back: backFace)
    }

    /// ``load(read:)`` from the files, decoded all at once: a 1260×1760 PNG takes about 50 ms to
    /// decode and a card has up to four. Failures are reported as reading them one by one would.
    public func load() throws -> LoadedCard {
        let files = Array(Set(paths))
        let decoded = Locked([String: Result<AnyRGBAImage, any Error>]())
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let result = Result<AnyRGBAImage, any Error> { try PNGCodec.read(files[i]) }
            decoded.withLock { $0[files[i]] = result }
        }
        let images = decoded.withLock { $0 }
        return try load { path in try images[path]!.get() }
    }
}
