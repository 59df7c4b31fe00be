/// Gold foil: the art printed in metallic gold. The foil reflects its own warm colour, lighter
/// where the art is light and never black (metal is never dark under light); its surface is
/// brushed along the rows, and brushed metal stretches a highlight across the grooves, so the
/// sheen is a vertical streak, grained by the grooves, that moves across the card as it turns
/// about its vertical axis.
///
/// Changed by the normal's x (where the streak is), the mask and the intensity (how much of the
/// art turns gold: at 1 the masked art is all metal).
@usableFromInline package enum GoldFoil: FoilShader {
    public static let name = "gold"
    public static let summary = "metallic gold foil: the art in warm gold tones with a brushed sheen that slides sideways"

    /// The foil's colour, and how light it is under the darkest art.
    public static let gold = SIMD3<Float>(1.0, 0.78, 0.34)
    @usableFromInline package static let darkest: Float = 0.3
    /// The highlight's colour.
    public static let light = SIMD3<Float>(1.0, 0.95, 0.80)
    /// The streak's half-width as a share of the face's width, and how far it moves per unit of
    /// the normal's x, in face widths.
    @usableFromInline package static let streakWidth: Float = 0.16
    public static let travel: Float = 2.2
    /// Groove cells down the face (the grain of the brushing) and how much they vary the sheen.
    package static let grooves: Float = 160
    package static let grain: Float = 0.5
    @usableFromInline static let seed: UInt32 = 0x601D_0001

    /// Per row, the grooves' effect on the sheen.
    public struct Tables: FoilTables {
        public let width: Int
        public let height: Int
        @usableFromInline var factors: [Float]

        public init(width: Int, height: Int, parameters: KiraParameters) {
            self.width = width
            self.height = height
            factors = [Float](repeating: 0, count: height)
            recompute()
        }

        public func serves(width: Int, height: Int, parameters: KiraParameters) -> Bool {
            self.width == width && self.height == height
        }

        public mutating func recompute() {
            for y in 0..<height { factors[y] = GoldFoil.groove(y, height: height) }
        }

        @inlinable public func rowTables(_ y: Int) -> Float { factors[y] }
    }

    /// The grooves' factor on row `y` of a face `height` pixels tall: 1D value noise, in
    /// `1 - grain ... 1`.
    package static func groove(_ y: Int, height: Int) -> Float {
        let st = (Float(y) + 0.5) / (Float(height) / grooves)
        let i = SeedShader.floor(st), f = SeedShader.fract(st)
        let u = f * f * (3 - 2 * f)
        let a = FoilMath.unit(FoilMath.hashCell(UInt32(i), 0, seed: seed), shift: 8, bits: 24)
        let b = FoilMath.unit(FoilMath.hashCell(UInt32(i + 1), 0, seed: seed), shift: 8, bits: 24)
        return (1 - grain) + SeedShader.mix(a, b, u) * grain
    }

    /// The streak's centre column (pixels) and the reciprocal of its half-width.
    public typealias Frame = SIMD2<Float>

    public struct Pixel {
        /// The gold minus the art, the mask's weight, and the coverage.
        public var delta: RGBLanes
        public var weight: RGBLanes
        public var coverage: Lanes

        @inlinable @inline(__always)
        public init(delta: RGBLanes, weight: RGBLanes, coverage: Lanes) {
            self.delta = delta
            self.weight = weight
            self.coverage = coverage
        }
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> SIMD2<Float> {
        let n = FoilMath.unitNormal(normal)
        return SIMD2(size.x * (0.5 - n.x * travel), 1 / (size.x * streakWidth))
    }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: Float) -> Pixel {
        let l = input.layer, m = input.mono, i = input.intensity, a = input.coverage
        let level = a * darkest + HeightField.luminance(l) * (1 - darkest)
        return Pixel(delta: RGBLanes(level * gold.x - l.r, level * gold.y - l.g, level * gold.z - l.b),
                     weight: RGBLanes(m.r * i, m.g * i, m.b * i), coverage: a)
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row groove: Float, frame: SIMD2<Float>) -> RGBLanes {
        let t = (input.centresX - frame.x) * frame.y
        let sheen = FoilMath.bump(t * t) * groove * pixel.coverage
        let l = input.layer, d = pixel.delta, w = pixel.weight
        return RGBLanes(l.r + (d.r + sheen * light.x) * w.r, l.g + (d.g + sheen * light.y) * w.g,
                        l.b + (d.b + sheen * light.z) * w.b)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        let l = sample.layer, a = sample.coverage
        // The art's lightness in gold, never darker than `darkest`.
        let level = a * darkest + HeightField.luminance(l) * (1 - darkest)
        let delta = level * gold - l
        // The brushed streak.
        let streak = frame(normal: normal, parameters: parameters, size: sample.size)
        let t = (sample.position.x - streak.x) * streak.y
        let sheen = FoilMath.bump(t * t) * groove(sample.y, height: Int(sample.size.y)) * a
        return l + (delta + sheen * light) * (sample.mono * sample.intensity)
    }
}
