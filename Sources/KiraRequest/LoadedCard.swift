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

    /// The bytes of the four decoded textures.
    public var byteCount: Int {
        front.face.art.byteCount + front.face.mask.byteCount + back.face.art.byteCount + back.face.mask.byteCount
    }
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

    /// Adds `note` to what is said about the face.
    public mutating func note(_ note: String) {
        assumption = assumption.map { "\($0); \(note)" } ?? note
    }

    /// The face from the user's images: art without a mask shines where it is opaque; without art
    /// the `sample` (drawn only then) gives the art, and the mask unless one was given. A mask
    /// given fits the art by ``FaceMap/fitted(_:artWidth:artHeight:parameter:)``'s rules.
    public static func resolve(art: (path: String, image: AnyRGBAImage)?, mask: AnyRGBAImage?, maskParameter: String,
                               sample: () -> CardFace) throws(RequestError) -> FaceInput {
        guard let art else {
            let sample = sample()
            let fitted = try mask.map { map throws(RequestError) in
                try FaceMap.fitted(map, artWidth: sample.art.width, artHeight: sample.art.height, parameter: maskParameter)
            }
            return FaceInput(face: try face(art: sample.art, mask: fitted ?? sample.mask, foilMap: sample.foilMap))
        }
        if let mask {
            let fitted = try FaceMap.fitted(mask, artWidth: art.image.width, artHeight: art.image.height, parameter: maskParameter)
            return FaceInput(face: try face(art: art.image, mask: fitted))
        }
        return FaceInput(face: try face(art: art.image, mask: .rgba8(AlphaMask.of(art.image))),
                         assumption: "no {\(maskParameter)}: the shine covers \(art.path) where it is opaque (its alpha as the mask)")
    }

    /// ``/KiraRender/CardFace/init(art:mask:foilMap:)``, its refusal as a request's error (images
    /// a caller's `read` returned may be empty).
    package static func face(art: AnyRGBAImage, mask: AnyRGBAImage, foilMap: AnyRGBAImage? = nil) throws(RequestError) -> CardFace {
        do {
            return try CardFace(art: art, mask: mask, foilMap: foilMap)
        } catch {
            throw RequestError(error)
        }
    }

    /// The help of the foil map's parameter.
    static let foilMapHelp =
        "Height map for the etched foil (PNG of the art's aspect ratio, a smaller one upscaled; default: the mask; the built-in card's art)."

    /// Takes `foilMap` (if any) as the face's foil map, fitted to the art by the masks' rules
    /// (``FaceMap/fitted(_:artWidth:artHeight:parameter:)``).
    public mutating func use(foilMap: AnyRGBAImage?) throws(RequestError) {
        guard let foilMap else { return }
        face.foilMap = try FaceMap.fitted(foilMap, artWidth: face.art.width, artHeight: face.art.height, parameter: "foil_map")
    }
}
