/// The original kira shine: value noise coloured by hue, lit where its colour is close to the hue
/// the view angle selects, added where the mask is light.
///
/// The fast path is ``KiraLanes`` on the factored noise (``NoiseTables``); the reference is
/// ``SeedShader/kiraEffect(position:layer:size:normal:mono:parameters:)``. The intensity scales
/// the mask (a multiply by 1 is exact: intensity 1 is the original shader bit for bit).
@usableFromInline package enum KiraFoil: FoilShader {
    public static let name = "kira"
    public static let summary = "the original holo: speckled rainbow noise that lights where its hue meets the view angle's"

    public typealias Tables = NoiseTables
    /// The view angle's colour (`generateAngleRGB`).
    public typealias Frame = SIMD3<Float>

    /// The noise colours and the mask scaled by the intensity.
    public struct Pixel {
        public var colors: NoiseColors
        public var weight: RGBLanes

        @inlinable @inline(__always)
        public init(colors: NoiseColors, weight: RGBLanes) {
            self.colors = colors
            self.weight = weight
        }
    }

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> SIMD3<Float> {
        KiraUniforms(normal: normal, parameters: parameters).angleColorRGB
    }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoiseTables.RowTables) -> Pixel {
        let m = input.mono, i = input.intensity
        return pixel(input, row: row, weight: RGBLanes(m.r * i, m.g * i, m.b * i))
    }

    /// The noise colours with the given weight (the mask's share of the shine).
    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoiseTables.RowTables, weight: RGBLanes) -> Pixel {
        Pixel(colors: KiraLanes.noiseColors(valueNoise: row.valueNoise(at: input.x)), weight: weight)
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row: NoiseTables.RowTables, frame: SIMD3<Float>) -> RGBLanes {
        let kira = KiraLanes.generateKiraRGB(pixel.colors, angleColorRGB: frame)
        return KiraLanes.composite(kira: kira, layer: input.layer, mono: pixel.weight)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        reference(sample, weight: sample.mono * sample.intensity, normal: normal, parameters: parameters)
    }

    /// The original `kiraEffect` with `weight` as the mask.
    public static func reference(_ sample: FoilSample, weight: SIMD3<Float>, normal: SIMD3<Float>,
                                 parameters: KiraParameters) -> SIMD3<Float> {
        let c = SeedShader.kiraEffect(position: sample.position, layer: SIMD4(sample.layer, sample.alpha), size: sample.size,
                                      normal: normal, mono: weight, parameters: parameters)
        return SIMD3(c.x, c.y, c.z)
    }
}

extension Foil {
    /// The original kira shine (`KiraFoil`), the default.
    public static let kira = Foil(KiraFoil.self)
}
