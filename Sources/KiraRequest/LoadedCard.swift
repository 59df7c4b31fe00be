import KiraGeometry
import KiraImage
import KiraRender

/// A card's two faces as read, and what was assumed for each.
public struct LoadedCard: Sendable {
    public var front: FaceInput
    public var back: FaceInput

    public init(front: FaceInput, back: FaceInput) {
        self.front = front
        self.back = back
    }

    /// What was assumed for the sides in `sides` (those a frame shows), joined into one line with
    /// parameters written `{name}` (``RequestError/spelling(_:with:)`` spells them); nil when
    /// nothing was.
    public func assumptions(showing sides: Set<CardSide>) -> String? {
        let notes = [sides.contains(.front) ? front.assumption : nil, sides.contains(.back) ? back.assumption : nil]
            .compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// The bytes of the decoded textures.
    public var byteCount: Int { front.face.byteCount + back.face.byteCount }
}

/// One face as read, and what was assumed for it.
public struct FaceInput: Sendable {
    public var face: CardFace
    /// What Kira chose for the user, with parameters written `{name}`; nil when every file was
    /// given or the sample card is used whole.
    public var assumption: String?

    public init(face: CardFace, assumption: String? = nil) {
        self.face = face
        self.assumption = assumption
    }

    /// The face from the user's images: art without a mask shines where it is opaque; without art
    /// the `sample` (drawn only then) gives the art, and the mask unless one was given.
    public static func resolve(art: (path: String, image: AnyRGBAImage)?, mask: AnyRGBAImage?, maskParameter: String,
                               sample: () -> CardFace) -> FaceInput {
        guard let art else {
            let sample = sample()
            return FaceInput(face: CardFace(art: sample.art, mask: mask ?? sample.mask, foilMap: sample.foilMap))
        }
        if let mask { return FaceInput(face: CardFace(art: art.image, mask: mask)) }
        return FaceInput(face: CardFace(art: art.image, mask: .rgba8(AlphaMask.of(art.image))),
                         assumption: "no {\(maskParameter)}: the shine covers \(art.path) where it is opaque (its alpha as the mask)")
    }

    /// The help of the foil map's parameter.
    static let foilMapHelp =
        "Height map for the etched foil (PNG, any size of the art's aspect ratio; default: the mask; the built-in card's art)."

    /// Takes `foilMap` (if any) as the face's foil map; refuses one whose aspect ratio is not the
    /// art's, naming both sizes.
    public mutating func use(foilMap: AnyRGBAImage?) throws(RequestError) {
        guard let foilMap else { return }
        let map = SIMD2(foilMap.width, foilMap.height), art = SIMD2(face.art.width, face.art.height)
        guard FoilMapShape.fits(map: map, art: art) else {
            throw RequestError(parameter: "foil_map", reason: "is \(map.x)×\(map.y) and the art \(art.x)×\(art.y): a foil map may have any size of the art's aspect ratio")
        }
        face.foilMap = foilMap
    }
}
