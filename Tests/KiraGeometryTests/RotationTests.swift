#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import KiraGeometry

@Suite struct RotationTests {
    static let tilts: [(Float, Float)] = [(0, 0), (10, 0), (0, 10), (-10, 7), (45, -30), (-7.5, -10), (90, 0), (30, 180)]

    @Test(arguments: tilts)
    func normalMatchesClosedForm(tilt: (Float, Float)) {
        let (tx, ty) = tilt
        let n = Rotation.normalFromTilt(tiltXDegrees: tx, tiltYDegrees: ty)
        let rx = Double(tx) * .pi / 180, ry = Double(ty) * .pi / 180
        let expected = SIMD3(Float(-sin(ry) * cos(rx)), Float(sin(rx)), Float(cos(ry) * cos(rx)))
        let error = maxDifference(n, expected)
        #expect(error < 2e-6, "tilt \(tilt): observed \(n), expected \(expected), error \(error)")
    }

    @Test func normalAtRestIsZAxis() {
        #expect(Rotation.normalFromTilt(tiltXDegrees: 0, tiltYDegrees: 0) == SIMD3(0, 0, 1))
    }

    @Test(arguments: [SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0), SIMD3(-2, 0.5, 3)],
          [Float(0), 10, -37, 90, 180, 271])
    func matricesAreOrthonormalRotations(axis: SIMD3<Float>, degrees: Float) {
        let m = Rotation.matrix(axis: axis, degrees: degrees)
        let product = m * m.transpose
        for i in 0..<3 {
            let row = product.row(i)
            for j in 0..<3 {
                #expect(abs(row[j] - (i == j ? 1 : 0)) < 1e-6, "M·Mᵀ[\(i)][\(j)] = \(row[j])")
            }
        }
        // Determinant +1: a rotation, not a reflection.
        let (c0, c1, c2) = m.columns
        let det = c0.x * (c1.y * c2.z - c1.z * c2.y) - c1.x * (c0.y * c2.z - c0.z * c2.y) + c2.x * (c0.y * c1.z - c0.z * c1.y)
        #expect(abs(det - 1) < 1e-5)
        // The axis is fixed.
        let unit = axis / (axis * axis).sum().squareRoot()
        #expect(maxDifference(m * unit, unit) < 1e-6)
    }

    @Test func seedConventionIsTheTransposeOfTheStandardRotation() {
        let seed = Rotation.matrix(axis: SIMD3(1, 2, 3), degrees: 33, convention: .seed)
        let standard = Rotation.matrix(axis: SIMD3(1, 2, 3), degrees: 33, convention: .standard)
        #expect(seed == standard.transpose)
        // The standard rotation by +90° about z takes x to y; the original's takes x to -y.
        let x = SIMD3<Float>(1, 0, 0)
        #expect(maxDifference(Rotation.matrix(axis: SIMD3(0, 0, 1), degrees: 90, convention: .standard) * x, SIMD3(0, 1, 0)) < 1e-6)
        #expect(maxDifference(Rotation.matrix(axis: SIMD3(0, 0, 1), degrees: 90) * x, SIMD3(0, -1, 0)) < 1e-6)
    }

    @Test func standardConventionTiltsTheOtherWay() {
        let n = Rotation.normalFromTilt(tiltXDegrees: 10, tiltYDegrees: 10, convention: .standard)
        let s = Rotation.normalFromTilt(tiltXDegrees: 10, tiltYDegrees: 10)
        #expect(n.z == s.z || abs(n.z - s.z) < 1e-6)
        #expect(n.x > 0 && s.x < 0 && n.y < 0 && s.y > 0)
    }
}

/// The largest componentwise difference between `a` and `b`.
func maxDifference(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
}
