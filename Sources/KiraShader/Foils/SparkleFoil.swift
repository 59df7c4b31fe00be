/// Sparkle foil: glitter. Flakes of metal lie in the varnish at random, each a tiny mirror tilted
/// its own way; a flake flashes when its mirror happens to send the light to the eye, so as the
/// card tilts, different flakes light up and go out while the rest glint faintly.
///
/// The face is divided into cells; a share of them hold a flake at a random spot, with a random
/// orientation (a point on a unit torus) and a slight tint. The normal picks the orientation that
/// reflects to the eye; flakes near it flash. Changed by the normal, the mask and the intensity.
@usableFromInline package enum SparkleFoil: FoilShader {
    public static let name = "sparkle"
    public static let summary = "glitter: sparse flakes that flash, each at its own tilt of the card"

    /// Cells across the face's shorter side (a flake's cell is about 7 pixels on the sample card).
    @usableFromInline package static let cellsAcross: Float = 90
    /// Cells holding a flake, of 256.
    public static let share: UInt32 = 100
    /// A flake's radius as a share of its cell.
    public static let radius: Float = 0.32
    /// How far from the reflecting orientation a flake still flashes (torus units), and how far
    /// the normal moves that orientation (per unit of its x and y).
    @usableFromInline package static let flashWidth: Float = 0.11
    public static let travel: Float = 2.5
    /// The faint glint of a flake that is not flashing, and the flash's peak.
    @usableFromInline package static let glint: Float = 0.3
    @usableFromInline package static let flash: Float = 1.6
    /// How much of a flake's tint is colour (the rest is white).
    @usableFromInline package static let tint: Float = 0.4
    @usableFromInline static let seed: UInt32 = 0x5EED_0001

    /// The orientation that reflects to the eye, on the unit torus.
    public typealias Frame = SIMD2<Float>

    public struct Pixel {
        /// The flake's orientation, and its colour times its coverage of the pixel.
        @usableFromInline package var orientationX: Lanes
        @usableFromInline package var orientationY: Lanes
        public var light: RGBLanes

        @inlinable @inline(__always)
        public init(orientationX: Lanes, orientationY: Lanes, light: RGBLanes) {
            self.orientationX = orientationX
            self.orientationY = orientationY
            self.light = light
        }
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> SIMD2<Float> {
        let n = FoilMath.unitNormal(normal)
        return SIMD2(SeedShader.fract(n.x * travel), SeedShader.fract(n.y * travel))
    }

    /// A cell's side in pixels on a face of `size`.
    @inlinable
    public static func cell(_ size: SIMD2<Float>) -> Float {
        Swift.max(3, SeedShader.floor(Swift.min(size.x, size.y) / cellsAcross))
    }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoFoilTables.Row) -> Pixel {
        let (h, spot) = FoilMath.dot(x: input.centresX, y: input.centreY, cell: cell(input.size), radius: radius, seed: seed)
        let present = FoilMath.below(h, share)
        let h2 = FoilMath.hash(h)
        let colour = FoilMath.spectrum(FoilMath.unit(h2, shift: 4, bits: 8))
        let m = input.mono
        let amount = spot * present * input.intensity
        return Pixel(
            orientationX: FoilMath.unit(h2, shift: 0, bits: 16), orientationY: FoilMath.unit(h2, shift: 16, bits: 16),
            light: RGBLanes((1 + (colour.r - 1) * tint) * amount * m.r, (1 + (colour.g - 1) * tint) * amount * m.g,
                            (1 + (colour.b - 1) * tint) * amount * m.b))
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row: NoFoilTables.Row, frame: SIMD2<Float>) -> RGBLanes {
        let dx = FoilMath.wrapped(pixel.orientationX, frame.x), dy = FoilMath.wrapped(pixel.orientationY, frame.y)
        let glow = glint + FoilMath.bump((dx * dx + dy * dy) * (1 / (flashWidth * flashWidth))) * flash
        let l = input.layer, s = pixel.light
        return RGBLanes(l.r + s.r * glow, l.g + s.g * glow, l.b + s.b * glow)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        // The cell's flake (if it has one), its spot on the pixel, its orientation and tint.
        let p = sample.position
        let (h, spot) = FoilMath.dot(x: p.x, y: p.y, cell: cell(sample.size), radius: radius, seed: seed)
        let present = FoilMath.below(h, share)
        let h2 = FoilMath.hash(h)
        let colour = FoilMath.spectrum(FoilMath.unit(h2, shift: 4, bits: 8))
        let amount = spot * present * sample.intensity
        let light = (1 + (colour - 1) * tint) * amount * sample.mono

        // The flash: how close this flake's orientation is to the one that reflects to the eye.
        let view = frame(normal: normal, parameters: parameters, size: sample.size)
        let ox = FoilMath.wrapped(FoilMath.unit(h2, shift: 0, bits: 16), view.x)
        let oy = FoilMath.wrapped(FoilMath.unit(h2, shift: 16, bits: 16), view.y)
        let glow = glint + FoilMath.bump((ox * ox + oy * oy) * (1 / (flashWidth * flashWidth))) * flash
        return sample.layer + light * glow
    }
}
