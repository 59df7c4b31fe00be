import Testing
@testable import KiraShader

/// The lane functions perform the scalar reference's operations in the same order, so they must
/// agree bit for bit, lane by lane.
@Suite struct LanesMatchReferenceTests {
    /// A deterministic spread of inputs (xorshift), including the edges 0 and 1.
    static func inputs(_ count: Int, seed: UInt32) -> [Float] {
        var state = seed
        return (0..<count).map { i in
            if i == 0 { return 0 }
            if i == 1 { return 1 }
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return Float(state % 1_000_001) / 1_000_000
        }
    }

    /// Equal bit for bit (so +0 and -0 differ).
    static func same(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern && a.z.bitPattern == b.z.bitPattern
    }

    static func lanes(_ values: ArraySlice<Float>) -> Lanes {
        var v = Lanes()
        for (i, x) in values.enumerated() { v[i] = x }
        return v
    }

    @Test func hsvConversionsMatch() {
        let h = Self.inputs(256, seed: 1), s = Self.inputs(256, seed: 2), v = Self.inputs(256, seed: 3)
        for base in stride(from: 0, to: 256, by: 16) {
            let range = base..<(base + 16)
            let rgb = KiraLanes.hsv2rgb(Self.lanes(h[range]), Self.lanes(s[range]), Self.lanes(v[range]))
            let hsv = KiraLanes.rgb2hsv(rgb)
            for i in 0..<16 {
                let expected = SeedShader.hsv2rgb(SIMD3(h[base + i], s[base + i], v[base + i]))
                #expect(SIMD3(rgb.r[i], rgb.g[i], rgb.b[i]) == expected, "hsv2rgb lane \(base + i)")
                let back = SeedShader.rgb2hsv(expected)
                #expect(SIMD3(hsv.r[i], hsv.g[i], hsv.b[i]) == back, "rgb2hsv lane \(base + i)")
            }
        }
    }

    /// `saturatedColor` is the reference's `hsv2rgb(h, 1, 1)` for every finite float (each was
    /// checked once by Tests/Exhaustive/saturated-color.c): here every 65 537th bit pattern, both
    /// signs, the hues next to -1, -2/3 and -1/3, where `h + k` falls just below 0, and the one
    /// float where `fract` caps its result (`h + 1/3` is -2⁻²⁵: `x - floor(x)` rounds up to 1).
    @Test func saturatedColorMatchesAcrossFloats() {
        let capped = Float(bitPattern: 0xBEAA_AAAC)
        let x = capped + Float(1.0 / 3.0)
        #expect(x == -0x1p-25 && x - x.rounded(.down) == 1, "the cap acts at \(capped)")
        var hues: [Float] = [capped, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for k: Float in [1, 2.0 / 3.0, 1.0 / 3.0] {
            var h = -k
            for _ in 0..<4 { h = h.nextDown }
            for _ in 0..<9 {
                hues.append(h)
                h = h.nextUp
            }
        }
        for bits in stride(from: UInt32(0), to: UInt32.max, by: 65537) {
            let h = Float(bitPattern: bits)
            if h.isFinite { hues.append(h) }
        }
        while hues.count % 16 != 0 { hues.append(0.5) }
        var mismatches = 0
        for base in stride(from: 0, to: hues.count, by: 16) {
            let color = KiraLanes.saturatedColor(Self.lanes(hues[base..<(base + 16)]))
            for i in 0..<16 where !Self.same(SIMD3(color.r[i], color.g[i], color.b[i]), SeedShader.hsv2rgb(SIMD3(hues[base + i], 1, 1))) {
                mismatches += 1
            }
        }
        #expect(hues.count > 60_000)
        #expect(mismatches == 0)
    }

    /// The lanes' rgb2hsv chooses where the reference multiplies by a step, and the noise colours
    /// take the saturation to be 1: checked on every 4099th float greater than -2.5 and less than
    /// 2 (the range the noise colours promise; the value noise lies in 0...1) and on the range's
    /// last floats, through both halves of the noise colours, and on 65 536 colours of random
    /// hue, saturation and value.
    @Test func noiseColoursMatchAcrossFloats() {
        var noises: [Float] = [Float(2).nextDown, Float(-2.5).nextUp]
        for bits in stride(from: UInt32(0), to: Float(2.5).bitPattern, by: 4099) { noises.append(-Float(bitPattern: bits)) }
        for bits in stride(from: UInt32(0), to: Float(2).bitPattern, by: 4099) { noises.append(Float(bitPattern: bits)) }
        while noises.count % 16 != 0 { noises.append(1) }
        var mismatches = 0
        for base in stride(from: 0, to: noises.count, by: 16) {
            let colors = KiraLanes.noiseColors(valueNoise: Self.lanes(noises[base..<(base + 16)]))
            for i in 0..<16 {
                let rgb = SeedShader.hsv2rgb(SIMD3(noises[base + i], 1, 1))
                let hsv = SeedShader.rgb2hsv(rgb)
                let full = SeedShader.hsv2rgb(SIMD3(hsv.x, hsv.y, 1))
                let lanes = (SIMD3(colors.colorNoiseRGB.r[i], colors.colorNoiseRGB.g[i], colors.colorNoiseRGB.b[i]),
                             SIMD3(colors.fullValueRGB.r[i], colors.fullValueRGB.g[i], colors.fullValueRGB.b[i]))
                if !Self.same(lanes.0, rgb) || !Self.same(lanes.1, full) { mismatches += 1 }
            }
        }
        #expect(noises.count > 500_000)
        #expect(mismatches == 0)

        let h = Self.inputs(65536, seed: 7), s = Self.inputs(65536, seed: 8), v = Self.inputs(65536, seed: 9)
        mismatches = 0
        for base in stride(from: 0, to: 65536, by: 16) {
            let range = base..<(base + 16)
            let hsv = KiraLanes.rgb2hsv(KiraLanes.hsv2rgb(Self.lanes(h[range]), Self.lanes(s[range]), Self.lanes(v[range])))
            for i in 0..<16 {
                let back = SeedShader.rgb2hsv(SeedShader.hsv2rgb(SIMD3(h[base + i], s[base + i], v[base + i])))
                if !Self.same(SIMD3(hsv.r[i], hsv.g[i], hsv.b[i]), back) { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: [SIMD3<Float>(0, 0, 1), SIMD3(-0.17, 0.17, 0.97), SIMD3(0.3, -0.2, 0.9), SIMD3(0, 0, -1)])
    func kiraEffectMatches(normal: SIMD3<Float>) {
        let noise = Self.inputs(128, seed: 4), layer = Self.inputs(128, seed: 5), mono = Self.inputs(128, seed: 6)
        let uniforms = KiraUniforms(normal: normal)
        for base in stride(from: 0, to: 128, by: 16) {
            let r = base..<(base + 16)
            let out = KiraLanes.kiraEffect(
                valueNoise: Self.lanes(noise[r]),
                layer: RGBLanes(Self.lanes(layer[r]), Self.lanes(layer[r]), Self.lanes(layer[r])),
                mono: RGBLanes(Self.lanes(mono[r]), Self.lanes(mono[r]), Self.lanes(mono[r])),
                angleColorRGB: uniforms.angleColorRGB)
            for i in 0..<16 {
                let colorNoiseRGB = SeedShader.hsv2rgb(SIMD3(noise[base + i], 1, 1))
                let kira = SeedShader.generateKiraRGB(colorNoiseRGB, normal) * SIMD3(repeating: mono[base + i])
                let expected = kira + SIMD3(repeating: layer[base + i])
                #expect(SIMD3(out.r[i], out.g[i], out.b[i]) == expected, "lane \(base + i), normal \(normal)")
            }
        }
    }

    @Test func laneFloorIsExact() {
        let values: [Float] = [-2.5, -1, -0.999, -1e-30, 0, 1e-30, 0.5, 1, 1.5, 8388607.5, 8388608, -8388609, 3e9, -3e9,
                               .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        var v = Lanes()
        for (i, x) in values.enumerated() { v[i] = x }
        let floored = Lanes.floor(v)
        for (i, x) in values.enumerated() {
            #expect(floored[i] == x.rounded(.down), "floor(\(x)) = \(floored[i])")
        }
    }

    @Test func quantisationMatchesScalar() {
        let values: [Float] = [-1, 0, 0.5 / 255, 1.5 / 255, 2.5 / 255, 0.2, 0.5, 254.5 / 255, 1, 2, .infinity, 0.999]
        var v = Lanes()
        for (i, x) in values.enumerated() { v[i] = x }
        for maxValue: Float in [255, 65535] {
            let q = Lanes.quantized(v, maxValue: maxValue)
            for (i, x) in values.enumerated() {
                #expect(q[i] == x.quantized(maxValue: maxValue), "quantize(\(x), \(maxValue)) = \(q[i])")
            }
        }
        #expect(Float(1.5 / 255).quantized(maxValue: 255) == 2)  // ties to even
        #expect(Float(2.5 / 255).quantized(maxValue: 255) == 2)
    }
}
