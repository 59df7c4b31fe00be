/// The glare: a soft highlight of the light on the card's surface, screened over the shaded face.
///
/// The light is a broad source a little above the viewer; its mirror image on a flat card sits
/// where the face's normal bisects light and eye, so it slides across the face as the card turns,
/// from the normal alone (a flat `kira shade` shows it too). Screen blending (`c + g * (1 - c)`)
/// brightens without overshooting white; on premultiplied faces "white" is the alpha, so the glare
/// stays on the card.
public enum Glare {
    /// At rest the highlight's centre sits this share of the face's height above the face's centre.
    public static let offset: Float = 0.18
    /// How far the centre moves per unit of the normal's x and y, as a share of the face's width
    /// and height (a 10° tilt moves it about a quarter of the face).
    public static let travel: Float = 1.6
    /// The highlight's radius as a share of the face's width.
    public static let radius: Float = 0.6
    // The falloff is `FoilMath.bump` of the squared distance over the squared radius:
    // `(1 - d²/r²)²` inside the radius, 0 outside.

    /// One normal's glare on a face.
    public struct Frame: Sendable {
        /// The centre in pixels, the reciprocal of the squared radius in pixels, the strength.
        public var centre: SIMD2<Float>
        @usableFromInline package var inverseRadiusSquared: Float
        public var strength: Float

        @inlinable
        public init(centre: SIMD2<Float>, inverseRadiusSquared: Float, strength: Float) {
            self.centre = centre
            self.inverseRadiusSquared = inverseRadiusSquared
            self.strength = strength
        }
    }

    /// The glare of strength `strength` for `normal` on a face of `size` (width, height).
    public static func frame(normal: SIMD3<Float>, size: SIMD2<Float>, strength: Float) -> Frame {
        let n = FoilMath.unitNormal(normal)
        let centre = SIMD2(size.x * (0.5 + n.x * travel), size.y * ((0.5 - offset) - n.y * travel))
        let r = size.x * radius
        return Frame(centre: centre, inverseRadiusSquared: 1 / (r * r), strength: strength)
    }

    /// The glare on colour `c` (premultiplied with coverage `coverage`, or straight with coverage
    /// 1) of the pixel centred at `position`.
    public static func apply(_ c: SIMD3<Float>, coverage: Float, position: SIMD2<Float>, frame: Frame) -> SIMD3<Float> {
        let dx = position.x - frame.centre.x, dy = position.y - frame.centre.y
        let g = FoilMath.bump((dx * dx + dy * dy) * frame.inverseRadiusSquared) * frame.strength
        // Screen: what is already brighter than full value stays as it is.
        let room = SIMD3(Swift.max(coverage - c.x, 0), Swift.max(coverage - c.y, 0), Swift.max(coverage - c.z, 0))
        return c + g * room
    }

    /// ``apply(_:coverage:position:frame:)`` for sixteen pixels centred at `x` and `y`.
    @inlinable @inline(__always)
    public static func apply(_ c: RGBLanes, coverage: Lanes, x: Lanes, y: Float, frame: Frame) -> RGBLanes {
        let dx = x - frame.centre.x, dy = y - frame.centre.y
        let g = FoilMath.bump((dx * dx + dy * dy) * frame.inverseRadiusSquared) * frame.strength
        return RGBLanes(c.r + g * Lanes.max(coverage - c.r, .zero), c.g + g * Lanes.max(coverage - c.g, .zero),
                        c.b + g * Lanes.max(coverage - c.b, .zero))
    }
}
