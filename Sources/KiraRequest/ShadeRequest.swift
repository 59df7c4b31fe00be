import KiraArguments
import KiraFiles
import KiraFormats
import KiraGeometry
import KiraImage
import KiraRender
import KiraSamples
import KiraShader

/// The flat card face with the shine, at the art's size: what `kira shade` makes.
public struct ShadeRequest: ParameterizedRequest, Equatable {
    /// The art; nil is the built-in sample card's front (or its back with ``back``).
    public var art: String?
    /// The holo mask; nil is the art's alpha, or the sample card's mask.
    public var mask: String?
    /// The foil map (the height map of foils that read one); nil is the mask, or the sample card's art.
    public var foilMap: String?
    /// The tilts that give the normal, in degrees (unset: 0).
    public var tiltX: Double?
    public var tiltY: Double?
    /// The normal itself, instead of a tilt.
    public var normal: SIMD3<Float>?
    /// Shade the back face: the normal negated, as a card's back faces the other way.
    public var back = false
    public var shader = ShaderSettings()
    public var output = OutputSettings()

    public init() {}

    public static let parameters: [RequestParameter<ShadeRequest>] = [
        .path("art", \.art, help: "The card art (PNG; converted to sRGB if it says it is in another space; default: the built-in sample card's front, or its back with {back_face})."),
        .path("mask", \.mask, help: "The holo mask (PNG of the art's aspect ratio; white = full shine, grey less, colour tints; transparent = none; default: the art's alpha, or the sample's mask)."),
        .path("foil_map", \.foilMap, help: FaceInput.foilMapHelp),
    ]
        + [
            .number("tilt_x", \.tiltX, in: RenderRequest.tiltRange, example: 8, valueName: "deg", help: RenderRequest.tiltHelp("x")),
            .number("tilt_y", \.tiltY, in: RenderRequest.tiltRange, example: -6, valueName: "deg", help: RenderRequest.tiltHelp("y")),
            .value("normal", \.normal, default: nil, valueName: "x,y,z",
                   help: "The face normal instead of a tilt, e.g. -0.3,0.2,0.9 (normalised).",
                   parse: { (text: String) throws(RequestError) -> SIMD3<Float>? in
                       guard let vector = ArgumentValues.vector3(text) else {
                           throw RequestError(parameter: "normal", reason: "must be three numbers x,y,z, e.g. -0.3,0.2,0.9, not \(ParameterValue.quoted(text))")
                       }
                       guard KiraUniforms.isValidNormal(vector) else {
                           throw RequestError(parameter: "normal", reason: "\(vector.x),\(vector.y),\(vector.z) has no direction: it must be finite and non-zero")
                       }
                       return vector
                   },
                   spell: { $0.map { "\($0.x),\($0.y),\($0.z)" } ?? "" }),
            .flag("back_face", \.back, help: "Shade the back face, as the seed does: with the normal negated."),
        ]
        + ShaderSettings.parameters.map { $0.lifted(\.shader) }
        + OutputSettings.parameters.map { $0.lifted(\.output) }

    public func validate() throws(RequestError) {
        if normal != nil, tiltX != nil || tiltY != nil {
            throw RequestError(parameter: nil, reason: "give either {normal} or {tilt_x}/{tilt_y}, not both")
        }
        try output.validate()
    }

    /// The files named.
    public var paths: [String] { [art, mask, foilMap].compactMap { $0 } }

    /// The normal of the face being shaded.
    public var faceNormal: SIMD3<Float> {
        let n = normal ?? CardPose(tiltX: tiltX ?? 0, tiltY: tiltY ?? 0).normal(convention: shader.rotation)
        return back ? -n : n
    }

    /// The face: the art and mask read through `read` (art as ``TextureRole/color``, the mask as
    /// ``TextureRole/data``), or the sample card's; the mask fits the art by
    /// ``FaceMap/fitted(_:artWidth:artHeight:parameter:)``'s rules.
    public func face(read: (String, TextureRole) throws -> AnyRGBAImage) throws -> FaceInput {
        let artImage = try art.map { try read($0, .color) }, maskImage = try mask.map { try read($0, .data) }
        let foilMapImage = try foilMap.map { try read($0, .data) }
        var input = try FaceInput.resolve(art: art.map { ($0, artImage!) }, mask: maskImage, maskParameter: "mask") {
            back ? BuiltInCard.back : BuiltInCard.front
        }
        try input.use(foilMap: foilMapImage)
        return input
    }

    /// The face, its files read by ``TextureFile/read(_:role:)`` (a stream within `budget`, when
    /// one is given); art converted to sRGB is said in its assumption.
    public func face(budget: MemoryBudget? = nil) throws -> FaceInput {
        var note: String?
        var input = try face { path, role in
            let file = try TextureFile.readNoted(path, role: role, budget: budget)
            if role == .color { note = file.note }
            return file.image
        }
        if let note { input.note(note) }
        return input
    }

    /// Refuses the shading of `face` when it would not fit `budget`: the inputs, the shaded image,
    /// its encoded bytes (at most about its raw size) and the scaler's copy.
    public func checkMemory(for face: CardFace, budget: MemoryBudget) throws(RequestError) {
        let art = face.art
        let image = MemoryBudget.imageBytes(width: art.width, height: art.height, channelBytes: output.channelBytes)
        try budget.check(face.byteCount + 2 * image + output.scalingBytes(width: art.width, height: art.height),
                         for: "shading a \(art.width)×\(art.height) image",
                         hint: "give smaller art")
    }

    /// Shades `face` at the request's depth.
    public func shade(_ face: CardFace, with renderer: ShadeRenderer) throws(RenderError) -> AnyRGBAImage {
        func shade<Out: LaneChannel>(_: Out.Type) throws(RenderError) -> RGBAImage<Out> {
            var image = RGBAImage<Out>()
            try renderer.shade(art: face.art, mask: face.mask, foilMap: face.foilMap, normal: faceNormal,
                               parameters: shader.parameters, into: &image)
            return image
        }
        return output.depth == 16 ? .rgba16(try shade(UInt16.self)) : .rgba8(try shade(UInt8.self))
    }

    /// The format of the file `path` (by its extension), checked against the request's output
    /// settings.
    public func format(ofFile path: String, parameter: String = "output") throws(RequestError) -> StillFormat {
        try output.format(ofFile: path, parameter: parameter)
    }

    /// What storing the shaded face as `format` does that the user may not expect (a JPEG
    /// flattens the art's transparent pixels), with parameters written `{name}`; nil when nothing.
    public func outputNote(for format: StillFormat, face: CardFace) -> String? {
        guard format == .jpeg, !face.art.isOpaque else { return nil }
        return "JPEG has no transparency: the art's transparent pixels are flattened onto white (write .png or .webp to keep them)"
    }

    /// Writes `image` to `path` as the request stores images, in the format of the path's
    /// extension, atomically.
    public func write(_ image: AnyRGBAImage, to path: String) throws {
        let format = try format(ofFile: path)
        try output.checkScaling(width: image.width, height: image.height)
        try output.encoder(for: format).write(image, to: path)
    }
}
