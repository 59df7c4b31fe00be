/// Rainbow foil: a diffraction grating pressed into the foil. Each spot sends one wavelength to
/// the eye, set by the angle between light, groove and viewer, so the card shows spectral bands
/// running across it diagonally; tilting the card changes every angle at once and the bands
/// slide. Fine grooves within each band make the colour shimmer in strips.
///
/// Changed by the normal (the bands' phase), the mask and the intensity (where and how much).
@usableFromInline package enum RainbowFoil: FoilShader {
    public static let name = "rainbow"
    public static let summary = "diffraction grating: diagonal spectral bands that slide as the card tilts"

    /// Spectral cycles from the top-left corner to the bottom-right one.
    public static let cycles: Float = 2.5
    /// Cycles the bands slide per unit of the normal's x + y (about half a cycle for a 10° tilt).
    @usableFromInline package static let slide: Float = 3
    /// Strips of finer grooves per cycle; the bands' brightness between strips and its rise to
    /// the middle of a strip (a grating sends the eye only part of the light: the bands stay
    /// translucent over the art).
    @usableFromInline package static let strips: Float = 4
    @usableFromInline package static let dim: Float = 0.35
    @usableFromInline package static let stripRise: Float = 0.3

    /// The bands' phase for this normal.
    public typealias Frame = Float

    public struct Pixel {
        /// The diagonal coordinate in cycles.
        public var phase: Lanes
        public var weight: RGBLanes

        @inlinable @inline(__always)
        public init(phase: Lanes, weight: RGBLanes) {
            self.phase = phase
            self.weight = weight
        }
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> Float {
        let n = FoilMath.unitNormal(normal)
        return (n.x + n.y) * slide
    }

    /// Cycles per pixel along the diagonal of a face of `size`.
    @inlinable
    package static func cyclesPerPixel(_ size: SIMD2<Float>) -> Float { cycles / (size.x + size.y) }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoFoilTables.Row) -> Pixel {
        let m = input.mono, i = input.intensity
        let phase = (input.centresX + input.centreY) * cyclesPerPixel(input.size)
        return Pixel(phase: phase, weight: RGBLanes(m.r * i, m.g * i, m.b * i))
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row: NoFoilTables.Row, frame: Float) -> RGBLanes {
        let hue = Lanes.fract(pixel.phase + frame)
        let colour = FoilMath.spectrum(hue)
        // A triangle wave: dim + stripRise mid-strip, dim between strips.
        let strip = Lanes.abs(Lanes.fract(hue * strips) * 2 - 1)
        let brightness = dim + strip * stripRise
        let l = input.layer, w = pixel.weight
        return RGBLanes(l.r + colour.r * brightness * w.r, l.g + colour.g * brightness * w.g,
                        l.b + colour.b * brightness * w.b)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        let weight = sample.mono * sample.intensity
        let p = sample.position
        let phase = (p.x + p.y) * cyclesPerPixel(sample.size)
        let hue = SeedShader.fract(phase + frame(normal: normal, parameters: parameters, size: sample.size))
        let colour = FoilMath.spectrum(hue)
        let strip = abs(SeedShader.fract(hue * strips) * 2 - 1)
        let brightness = dim + strip * stripRise
        return sample.layer + colour * brightness * weight
    }
}
