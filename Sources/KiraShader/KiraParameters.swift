/// The shader's constants (what differs between the original Metal shader and its GLSL ancestor)
/// and the look: which foil, how strong its shine, how much glare.
///
/// Every renderer takes these with the scene, so a look needs no plumbing of its own.
public struct KiraParameters: Sendable, Equatable, Hashable {
    /// How the shader derives the noise coordinate's y from the pixel position.
    public enum VerticalFlip: String, Sendable, CaseIterable {
        /// The original's `fragCoord.y = W - position.y`, flipped with the layer's **width**. A
        /// quirk, reproduced by default.
        case seedWidth
        /// `fragCoord.y = H - position.y`, the flip the original presumably meant.
        case height
        /// No flip, `fragCoord = position`, as the three.js material the original came from.
        case none
    }

    /// `ANGLE_STRENGTH`: how many hue cycles per radian of view angle.
    public var angleStrength: Float
    /// `NOISE_SCALE`: lattice cells across the layer.
    @usableFromInline package var noiseScale: Float
    public var verticalFlip: VerticalFlip
    /// The foil: what the shine looks like (``Foil/kira``, the seed's, by default).
    public var foil: Foil
    /// How strong the foil's shine is, in ``intensityRange``: 0 is the art alone, 1 the foil as
    /// designed, 2 twice its shine (clamped when stored).
    public var intensity: Float
    /// How strong the glare is, in ``glareRange``: a soft highlight that follows the face's
    /// normal (``Glare``); 0, the default, adds none.
    public var glare: Float

    public init(angleStrength: Float = 10, noiseScale: Float = 6, verticalFlip: VerticalFlip = .seedWidth,
                foil: Foil = .kira, intensity: Float = 1, glare: Float = 0) {
        self.angleStrength = angleStrength
        self.noiseScale = noiseScale
        self.verticalFlip = verticalFlip
        self.foil = foil
        self.intensity = intensity
        self.glare = glare
    }

    /// The intensities a renderer accepts.
    public static let intensityRange: ClosedRange<Float> = 0...2
    /// The glare strengths a renderer accepts.
    public static let glareRange: ClosedRange<Float> = 0...1

    /// Why these parameters cannot be rendered (one line naming the valid range), or nil.
    public var problem: String? {
        if !Self.intensityRange.contains(intensity) {
            return "the intensity must be a number from 0 to 2, not \(intensity)"
        }
        if !Self.glareRange.contains(glare) { return "the glare must be a number from 0 to 1, not \(glare)" }
        return nil
    }

    /// The original Metal shader: strength 10, scale 6, the width flip. The default.
    public static let seed = KiraParameters()
    /// The three.js material the original was ported from: strength 20, scale 6, no flip.
    public static let threeJS = KiraParameters(angleStrength: 20, noiseScale: 6, verticalFlip: .none)

    /// `fragCoord.y` for a pixel centre at `positionY` on a `width` × `height` layer.
    @inlinable
    package func fragCoordY(_ positionY: Float, width: Float, height: Float) -> Float {
        switch verticalFlip {
        case .seedWidth: width - positionY
        case .height: height - positionY
        case .none: positionY
        }
    }
}
