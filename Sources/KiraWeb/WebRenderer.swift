import KiraGeometry
import KiraImage
import KiraRender
import KiraSamples
import KiraShader

/// What the browser's Kira module renders: one card's flat faces (what `kira shade` writes) and
/// its frames on screen (what `kira render --background transparent` writes, or on a colour), as
/// 8-bit RGBA with straight alpha, byte for byte the same as those commands.
///
/// It holds the card (the built-in sample card, drawn on first use, until a card file is loaded),
/// the renderer and its buffers, and the last image made, so that frame after frame allocates
/// nothing once the sizes are settled.
public final class WebRenderer {
    /// The card's faces; nil until the first render or load (the sample card is then drawn).
    private var card: (front: CardFace, back: CardFace)?
    private let renderer: FrameRenderer
    /// The last image made.
    public private(set) var image = RGBAImage<UInt8>()

    /// The largest render this module takes, in bytes at its peak: a browser tab runs out of
    /// memory long before WebAssembly's 4 GiB, and a failed allocation there ends the module.
    public static let maxPeakBytes = 1 << 30

    public init(threads: Int = 1) {
        renderer = FrameRenderer(threads: threads)
    }

    /// The faces in use.
    public var faces: (front: CardFace, back: CardFace) {
        if let card { return card }
        let sample = (BuiltInCard.front, BuiltInCard.back)
        card = sample
        return sample
    }

    /// Uses the card of a card file (its bytes uncompressed) from now on.
    public func load(cardFile bytes: UnsafeRawBufferPointer) throws(CardFileError) {
        card = try CardFile.decode(bytes)
    }

    /// Uses the built-in sample card from now on.
    public func useSampleCard() {
        card = (BuiltInCard.front, BuiltInCard.back)
    }

    /// Shades the front face (or the back, with its normal negated, as `kira shade --back-face` does)
    /// tilted by `tiltX` and `tiltY` degrees, into ``image``.
    public func shade(tiltX: Double, tiltY: Double, back: Bool, parameters: KiraParameters) throws(WebRenderError) {
        let face = back ? faces.back : faces.front
        let normal = CardPose(tiltX: tiltX, tiltY: tiltY).normal(convention: .seed)
        let peak = face.byteCount + 2 * AnyRGBAImage.byteCount(width: face.art.width, height: face.art.height, channelBytes: 1)
        guard peak <= Self.maxPeakBytes else { throw .tooLarge(peak) }
        do {
            try renderer.shader.shade(art: face.art, mask: face.mask, foilMap: face.foilMap, normal: back ? -normal : normal,
                                      parameters: parameters, into: &image)
        } catch {
            throw .render(error)
        }
    }

    /// Draws the card at `pose` into ``image``, placed on its canvas as `kira render` places it:
    /// `size` nil is the card plus room for a ±45° tilt (scaled by `scale`); `fit` fills `size`
    /// with what the card draws.
    public func render(pose: CardPose, crossfade: Bool, size: (width: Int, height: Int)?, scale: Double?, fit: Bool,
                       background: FrameBackground, parameters: KiraParameters) throws(WebRenderError) {
        if fit, scale != nil { throw .options("give either scale or fit, not both") }
        if fit, size == nil { throw .options("fit needs a size (the default canvas already fits the card)") }
        let (front, back) = faces
        let scene: FrameScene
        do {
            scene = try FrameScene.placed(front: front, back: back, pose: pose, size: size, scale: scale, fit: fit,
                                          background: background, visibility: crossfade ? .crossfade : .orientation,
                                          parameters: parameters, rotationConvention: .seed)
        } catch {
            throw .render(error)
        }
        let peak = FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: 1)
        guard peak <= Self.maxPeakBytes else { throw .tooLarge(peak) }
        do {
            try renderer.render(scene, into: &image)
        } catch {
            throw .render(error)
        }
    }
}

/// Why the browser's module made no image.
public enum WebRenderError: Error, CustomStringConvertible {
    case render(RenderError)
    case options(String)
    /// The render would need this many bytes, over ``WebRenderer/maxPeakBytes``.
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .render(let error): error.description
        case .options(let reason): reason
        case .tooLarge(let bytes):
            "that image needs about \(bytes >> 20) MiB at its peak; the browser module renders up to \(WebRenderer.maxPeakBytes >> 20) MiB: give a smaller size"
        }
    }
}
