import Testing
@testable import KiraShader

@Suite struct ColorTests {
    @Test func hsv2rgbPrimaries() {
        #expect(SeedShader.hsv2rgb(SIMD3(0, 1, 1)) == SIMD3(1, 0, 0))
        let third: Float = 1.0 / 3.0
        let green = SeedShader.hsv2rgb(SIMD3(third, 1, 1))
        #expect(abs(green.x) < 1e-6 && abs(green.y - 1) < 1e-6 && abs(green.z) < 1e-6, "\(green)")
        let half = SeedShader.hsv2rgb(SIMD3(0.5, 1, 1))  // cyan
        #expect(abs(half.x) < 1e-6 && abs(half.y - 1) < 1e-6 && abs(half.z - 1) < 1e-6, "\(half)")
        #expect(SeedShader.hsv2rgb(SIMD3(0.3, 0, 0.25)) == SIMD3(repeating: 0.25))  // gray
    }

    @Test func rgb2hsvInvertsHsv2rgb() {
        for i in 0..<200 {
            let hsv = SIMD3(Float(i) / 200, Float(i % 7 + 3) / 10, Float(i % 5 + 5) / 10)
            let back = SeedShader.rgb2hsv(SeedShader.hsv2rgb(hsv))
            #expect(abs(back.x - hsv.x) < 2e-5 || abs(abs(back.x - hsv.x) - 1) < 2e-5, "hue of \(hsv): \(back)")
            #expect(abs(back.y - hsv.y) < 1e-5 && abs(back.z - hsv.z) < 1e-6, "\(hsv) -> \(back)")
        }
    }

    @Test func hueIsOneHalfAtRest() {
        // n = (0, 0, 1): the view angle is 3π/4, times 10 is 7.5π, mod π is π/2.
        let angle = SeedShader.getViewAngle(SIMD3(0, 0, 1))
        #expect(abs(angle - 3 * .pi / 4) < 1e-6)
        let rgb = SeedShader.generateAngleRGB(10, SIMD3(0, 0, 1))
        let cyan = SeedShader.hsv2rgb(SIMD3(0.5, 1, 1))
        #expect(abs(rgb.x - cyan.x) < 1e-5 && abs(rgb.y - cyan.y) < 1e-5 && abs(rgb.z - cyan.z) < 1e-5, "\(rgb)")
    }

    @Test func metalBuiltIns() {
        #expect(SeedShader.fract(-1e-9) == Float(bitPattern: 0x3F7F_FFFF))  // clamped below 1
        #expect(SeedShader.fract(2.25) == 0.25)
        #expect(SeedShader.mod(-1, 3) == 2)
        #expect(SeedShader.step(0.5, 0.5) == 1 && SeedShader.step(0.5, 0.49) == 0)
        #expect(SeedShader.mix(2, 4, 0.25) == 2.5)
    }

    @Test func nearestTexelClampsToEdges() {
        #expect(SeedShader.nearestTexel(-0.5, size: 10) == 0)
        #expect(SeedShader.nearestTexel(0.05, size: 10) == 0)
        #expect(SeedShader.nearestTexel(0.15, size: 10) == 1)
        #expect(SeedShader.nearestTexel(0.999, size: 10) == 9)
        #expect(SeedShader.nearestTexel(1.5, size: 10) == 9)
    }
}
