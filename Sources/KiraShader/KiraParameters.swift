/// The shader's constants: what differs between the original Metal shader and its GLSL ancestor.
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
    public var noiseScale: Float
    public var verticalFlip: VerticalFlip

    public init(angleStrength: Float = 10, noiseScale: Float = 6, verticalFlip: VerticalFlip = .seedWidth) {
        self.angleStrength = angleStrength
        self.noiseScale = noiseScale
        self.verticalFlip = verticalFlip
    }

    /// The original Metal shader: strength 10, scale 6, the width flip. The default.
    public static let seed = KiraParameters()
    /// The three.js material the original was ported from: strength 20, scale 6, no flip.
    public static let threeJS = KiraParameters(angleStrength: 20, noiseScale: 6, verticalFlip: .none)

    /// `fragCoord.y` for a pixel centre at `positionY` on a `width` × `height` layer.
    @inlinable
    public func fragCoordY(_ positionY: Float, width: Float, height: Float) -> Float {
        switch verticalFlip {
        case .seedWidth: width - positionY
        case .height: height - positionY
        case .none: positionY
        }
    }
}
