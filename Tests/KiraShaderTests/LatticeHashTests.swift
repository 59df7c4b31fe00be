import Testing
@testable import KiraShader

/// The lattice hash is float32 with two roundings in the dot and no FMA (docs/fidelity.md). These values
/// were worked out independently (NumPy float32 arithmetic, `sin` correctly rounded from the
/// float32 argument); a hash computed in float64, or with a fused dot, gives other values.
@Suite struct LatticeHashTests {
    static let pinned: [(SIMD2<Float>, Float)] = [
        (SIMD2(0, 0), 0),
        (SIMD2(1, 0), 0.94140625),
        (SIMD2(0, 1), 0.1123046875),
        (SIMD2(1, 1), 0.6875),
        (SIMD2(3, -2), 0.78515625),  // a fused multiply-add gives 0.88671875 here
        (SIMD2(5, 4), 0.59765625),  // float64 gives 0.2672
        (SIMD2(6, -8), 0.24609375),
        (SIMD2(-1, 5), 0.13671875),
        (SIMD2(2, 3), 0.45068359375),
    ]

    @Test(arguments: pinned.indices)
    func pinnedLatticeValues(index: Int) {
        let (point, expected) = Self.pinned[index]
        let observed = SeedShader.generateRandomFloat(point)
        #expect(observed == expected, "rnd(\(point)): expected \(expected), observed \(observed)")
    }

    @Test func valueNoiseAtLatticePointIsTheHash() {
        // At an integer point f = 0, so u = 0 and the noise is exactly `a`.
        for point in Self.pinned.map(\.0) {
            #expect(SeedShader.generateValueNoise(point) == SeedShader.generateRandomFloat(point))
        }
    }

    @Test func valueNoiseStaysInUnitInterval() {
        for i in 0..<500 {
            let st = SIMD2(Float(i % 37) * 0.173 - 2, Float(i / 37) * 0.291 - 1)
            let n = SeedShader.generateValueNoise(st)
            #expect(n >= 0 && n <= 1, "noise(\(st)) = \(n)")
        }
    }
}
