/// Reverse holo: the kira shine everywhere the mask is dark — the card's frame and background —
/// and none in the art window, as reverse-holo printings foil everything but the picture.
///
/// It is ``KiraFoil`` with the mask inverted and clipped by the art's alpha (the inverted mask is
/// light outside the card too, where nothing should shine).
@usableFromInline package enum ReverseFoil: FoilShader {
    public static let name = "reverse"
    public static let summary = "reverse holo: the kira shine on everything but the art window (the mask inverted)"

    public typealias Tables = NoiseTables
    public typealias Frame = KiraFoil.Frame
    public typealias Pixel = KiraFoil.Pixel

    @inlinable
    public static func frame(normal: SIMD3<Float>, parameters: KiraParameters, size: SIMD2<Float>) -> SIMD3<Float> {
        KiraFoil.frame(normal: normal, parameters: parameters, size: size)
    }

    @inlinable @inline(__always)
    public static func pixel(_ input: FoilInput, row: NoiseTables.RowTables) -> Pixel {
        let m = input.mono, a = input.alpha, i = input.intensity
        let one = Lanes(repeating: 1)
        let weight = RGBLanes((one - m.r) * a * i, (one - m.g) * a * i, (one - m.b) * a * i)
        return KiraFoil.pixel(input, row: row, weight: weight)
    }

    @inlinable @inline(__always)
    public static func shade(_ pixel: Pixel, _ input: FoilInput, row: NoiseTables.RowTables, frame: SIMD3<Float>) -> RGBLanes {
        KiraFoil.shade(pixel, input, row: row, frame: frame)
    }

    public static func reference(_ sample: FoilSample, normal: SIMD3<Float>, parameters: KiraParameters) -> SIMD3<Float> {
        let weight = (SIMD3(repeating: 1) - sample.mono) * sample.alpha * sample.intensity
        return KiraFoil.reference(sample, weight: weight, normal: normal, parameters: parameters)
    }
}
