import Testing
@testable import KiraShader

/// The factored noise must equal the plain `generateValueNoise` bit for bit at every pixel.
@Suite struct NoiseTablesTests {
    @Test(arguments: [(1, 1), (16, 16), (33, 51), (51, 33), (90, 64), (17, 200)],
          KiraParameters.VerticalFlip.allCases)
    func tablesMatchSeedNoise(size: (Int, Int), flip: KiraParameters.VerticalFlip) {
        let (width, height) = size
        let parameters = KiraParameters(verticalFlip: flip)
        let tables = NoiseTables(width: width, height: height, parameters: parameters)
        let sizeF = SIMD2(Float(width), Float(height))
        var mismatches = 0
        for y in 0..<height {
            let row = tables.rowTables(y)
            for x0 in stride(from: 0, to: width, by: 16) {
                let lanes = row.valueNoise(at: x0)
                for i in 0..<min(16, width - x0) {
                    let st = SeedShader.noiseCoordinate(
                        SIMD2(Float(x0 + i) + 0.5, Float(y) + 0.5), size: sizeF, parameters: parameters)
                    if lanes[i] != SeedShader.generateValueNoise(st) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(width * height) pixels differ from the plain noise")
    }

    @Test func recomputeReproducesTheTables() {
        var tables = NoiseTables(width: 37, height: 53)
        let before = (0..<53).map { y in (0..<37).map { x in tables.rowTables(y).valueNoise(at: x / 16 * 16)[x % 16] } }
        tables.recompute()
        let after = (0..<53).map { y in (0..<37).map { x in tables.rowTables(y).valueNoise(at: x / 16 * 16)[x % 16] } }
        #expect(before == after)
    }
}
