/// Etched foil: a relief pressed into the foil, as embossed cards are. The height map (the foil
/// map's luminance, or the mask's) is lit by a light whose direction on the card follows the
/// card's tilt: slopes facing the light catch a silver highlight, slopes facing away fall into
/// shadow, and the flat foil keeps a faint metallic sheen.
///
/// Changed by the normal (where the light comes from), the height map (`--foil-map`), the mask
/// (where the relief shows) and the intensity.
@usableFromInline package enum EtchedFoil: FoilShader {
    public static let name = "etched"
    public static let summary = "embossed relief: the foil map (or the mask) as a height map, lit from the tilt"

    public static var readsHeight: Bool { true }

    /// The light's direction on the card at rest (from the upper left), how far the normal swings
    /// it, and the relief's gain (a slope of one full height step across two pixels is lit this much).
    @usableFromInline package static let lightAtRest = SIMD2<Float>(-0.5, -0.7)
    @usableFromInline package static let swing: Float = 1.5
    public static let depth: Float = 4
    /// The highlight's colour, the flat foil's sheen, and how dark the shadows get.
    @usableFromInline package static let silver = SIMD3<Float>(0.92, 0.95, 1.0)
    @usableFromInline package static let sheen: Float = 0.1
    public static let shadow: Float = 0.55

    /// The light's direction on the card, times the relief's gain.
    public typealias Frame = SIMD2<Float>

    public struct Pixel {
        /// The height map's slopes (right minus left, below minus above), the mask's weight and
        /// the coverage.
        @usableFromInline package var slopeX: Lanes
        @usableFromInline package var slopeY: Lanes
        public var weight: RGBLanes
        public var coverage: Lanes

        @inlinable @inline(__always)
        public init(slopeX: Lanes, slopeY: Lanes, weight: RGBLanes, coverage: Lanes) {
            self.slopeX = slopeX
            self.slopeY = slopeY
            self.weight = weight
            self.coverage = coverage
        }
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> SIMD2<Float> {
        let n = FoilMath.unitNormal(normal)
        return SIMD2((lightAtRest.x - n.x * swing) * depth, (lightAtRest.y - n.y * swing) * depth)
    }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoFoilTables.Row) -> Pixel {
        let h = input.height, x = input.x, m = input.mono, i = input.intensity
        return Pixel(slopeX: h.lanes(x: x, dx: 1, dy: 0) - h.lanes(x: x, dx: -1, dy: 0),
                     slopeY: h.lanes(x: x, dx: 0, dy: 1) - h.lanes(x: x, dx: 0, dy: -1),
                     weight: RGBLanes(m.r * i, m.g * i, m.b * i), coverage: input.coverage)
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row: NoFoilTables.Row, frame: SIMD2<Float>) -> RGBLanes {
        let relief = pixel.slopeX * frame.x + pixel.slopeY * frame.y
        let lit = (Lanes.max(relief, .zero) + sheen) * pixel.coverage
        let dark = Lanes.max(-relief, .zero) * shadow
        let l = input.layer, w = pixel.weight
        return RGBLanes(l.r + (lit * silver.x - l.r * dark) * w.r, l.g + (lit * silver.y - l.g * dark) * w.g,
                        l.b + (lit * silver.z - l.b * dark) * w.b)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        let slopeX = sample.height(1, 0) - sample.height(-1, 0)
        let slopeY = sample.height(0, 1) - sample.height(0, -1)
        let light = frame(normal: normal, parameters: parameters, size: sample.size)
        let relief = slopeX * light.x + slopeY * light.y
        let lit = (Swift.max(relief, 0) + sheen) * sample.coverage
        let dark = Swift.max(-relief, 0) * shadow
        let l = sample.layer
        return l + (lit * silver - l * dark) * (sample.mono * sample.intensity)
    }
}
