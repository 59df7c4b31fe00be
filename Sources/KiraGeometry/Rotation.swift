#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// Axis–angle rotation matrices and the face normal of the original shader (`rotationMatrix`,
/// `normalFromTilt`), in float32 as it computes them (docs/fidelity.md).
public enum Rotation {
    /// Which matrix `rotationMatrix` builds.
    public enum Convention: String, Sendable, CaseIterable {
        /// The original shader's: the Rodrigues formula's rows are stored as the matrix's *columns*, so the
        /// matrix is the transpose (the inverse) of the usual rotation. The default.
        case seed
        /// The usual right-handed rotation by `degrees` about `axis`.
        case standard
    }

    /// The rotation by `degrees` about `axis` (normalised here), as the original `rotationMatrix`.
    public static func matrix(axis: SIMD3<Float>, degrees: Float, convention: Convention = .seed) -> Matrix3x3 {
        let rad = degrees * .pi / 180
        let a = axis / (axis * axis).sum().squareRoot()
        let c = cosf(rad)
        let s = sinf(rad)
        let t = 1 - c
        // Rodrigues' rotation matrix, row by row.
        let r0 = SIMD3(t * a.x * a.x + c, t * a.x * a.y - s * a.z, t * a.x * a.z + s * a.y)
        let r1 = SIMD3(t * a.x * a.y + s * a.z, t * a.y * a.y + c, t * a.y * a.z - s * a.x)
        let r2 = SIMD3(t * a.x * a.z - s * a.y, t * a.y * a.z + s * a.x, t * a.z * a.z + c)
        switch convention {
        case .seed: return Matrix3x3(r0, r1, r2)
        case .standard: return Matrix3x3(rows: r0, r1, r2)
        }
    }

    /// The original shader's `normalFromTilt`: `normalize(Ry(tiltY) * Rx(tiltX) * (0, 0, 1))`.
    ///
    /// With the original convention this is `(-sin ty · cos tx, sin tx, cos ty · cos tx)`: a positive
    /// `tiltY` turns the normal towards -x. At rest it is `(0, 0, 1)`.
    public static func normalFromTilt(tiltXDegrees: Float, tiltYDegrees: Float,
                                      convention: Convention = .seed) -> SIMD3<Float>
    {
        let rx = matrix(axis: SIMD3(1, 0, 0), degrees: tiltXDegrees, convention: convention)
        let ry = matrix(axis: SIMD3(0, 1, 0), degrees: tiltYDegrees, convention: convention)
        let v = (ry * rx) * SIMD3(0, 0, 1)
        return v / (v * v).sum().squareRoot()
    }
}
