#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// A plane-to-plane projective map in row-vector convention: a point maps as
/// `[x y 1] · M = [X Y W]`, to `(X / W, Y / W)`.
///
/// This is what SwiftUI's `rotation3DEffect` does to a view: the 4 × 4 Core Animation
/// transform with the z row and column dropped, because the view is flat before and after.
/// Double precision: homographies are chained and inverted, and pixel positions must stay exact
/// to far below a pixel.
///
/// The entries are stored as scalars, and every member that takes or returns a `SIMD3<Double>`
/// is inlinable: a 32-byte vector is passed in different registers with and without AVX, and
/// Kira's `NativeCPU` trait compiles Kira for the build machine while a package that uses it may
/// not be.
public struct Homography: Sendable, Equatable, CustomStringConvertible {
    @usableFromInline var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    /// The rows of `M`.
    @inlinable
    public var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        get { (SIMD3(m.0, m.1, m.2), SIMD3(m.3, m.4, m.5), SIMD3(m.6, m.7, m.8)) }
        set { self = Homography(rows: newValue.0, newValue.1, newValue.2) }
    }

    @inlinable
    public init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        m = (r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z)
    }

    public static let identity = Homography(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The translation by `offset`.
    public static func translation(_ offset: SIMD2<Double>) -> Homography {
        Homography(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(offset.x, offset.y, 1))
    }

    /// SwiftUI's `rotation3DEffect(angle, axis:, anchor:, anchorZ:, perspective:)` on a view of
    /// `size` points (x right, y down).
    ///
    /// `translate(-a) · rotate(angle, axis) · P(d) · translate(+a)` with the anchor
    /// `a = (anchor.x · W, anchor.y · H, anchorZ)`, the eye distance `d = max(W, H) / perspective`
    /// (no perspective when `perspective` is 0), and the rows of the axis–angle rotation about the
    /// normalised axis. A positive angle about y turns the right edge away from the viewer.
    @inlinable
    public static func rotation3DEffect(
        degrees: Double, axis: SIMD3<Double>, anchor: SIMD2<Double> = SIMD2(0.5, 0.5), anchorZ: Double = 0,
        perspective: Double = 1, size: SIMD2<Double>
    ) -> Homography {
        rotation3DEffect(degrees: degrees, axisX: axis.x, axisY: axis.y, axisZ: axis.z, anchor: anchor,
                         anchorZ: anchorZ, perspective: perspective, size: size)
    }

    @usableFromInline
    static func rotation3DEffect(
        degrees: Double, axisX: Double, axisY: Double, axisZ: Double, anchor: SIMD2<Double>, anchorZ: Double,
        perspective: Double, size: SIMD2<Double>
    ) -> Homography {
        let axis = SIMD3(axisX, axisY, axisZ)
        let length = (axis * axis).sum().squareRoot()
        precondition(length > 0 && length.isFinite, "the rotation axis must be finite and non-zero")
        let n = axis / length
        let radians = degrees * .pi / 180
        let c = cos(radians), s = sin(radians), t = 1 - c
        let (x, y, z) = (n.x, n.y, n.z)
        let rotation = Matrix4(
            SIMD4(t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0),
            SIMD4(t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0),
            SIMD4(t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0),
            SIMD4(0, 0, 0, 1))
        let eye = max(size.x, size.y) / perspective
        var project = Matrix4.identity
        if perspective != 0 { project.rows.2.w = -1 / eye }
        let a = SIMD3(anchor.x * size.x, anchor.y * size.y, anchorZ)
        var toAnchor = Matrix4.identity, fromAnchor = Matrix4.identity
        toAnchor.rows.3 = SIMD4(-a.x, -a.y, -a.z, 1)
        fromAnchor.rows.3 = SIMD4(a.x, a.y, a.z, 1)
        let m = toAnchor * rotation * project * fromAnchor
        // Keep rows and columns x, y and w: the view is flat (z = 0) and is flattened again.
        func keep(_ row: SIMD4<Double>) -> SIMD3<Double> { SIMD3(row.x, row.y, row.w) }
        return Homography(rows: keep(m.rows.0), keep(m.rows.1), keep(m.rows.3))
    }

    /// `self` followed by `next`: the effect of applying the modifier of `self`, then the one of
    /// `next` (SwiftUI applies modifiers from the view outwards).
    public func then(_ next: Homography) -> Homography { self * next }

    /// The row-vector product `a · b`: map by `a`, then by `b`.
    public static func * (a: Homography, b: Homography) -> Homography {
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { b.rows.0 * r.x + b.rows.1 * r.y + b.rows.2 * r.z }
        return Homography(rows: row(a.rows.0), row(a.rows.1), row(a.rows.2))
    }

    /// `[x y 1] · M`, before the division by `W`.
    @inlinable
    public func homogeneous(_ p: SIMD2<Double>) -> SIMD3<Double> {
        rows.0 * p.x + rows.1 * p.y + rows.2
    }

    /// Where `p` lands, or nil when it lands at or behind the eye (`W ≤ 0`).
    public func apply(_ p: SIMD2<Double>) -> SIMD2<Double>? {
        let h = homogeneous(p)
        guard h.z > 0 else { return nil }
        return SIMD2(h.x / h.z, h.y / h.z)
    }

    public var determinant: Double {
        let (a, b, c) = rows
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }

    /// Whether a face mapped by this homography is seen from its front: the map keeps the
    /// orientation of the plane (positive determinant, where `W > 0`).
    public var preservesOrientation: Bool { determinant > 0 }

    /// The inverse map, or nil when the homography is singular (a face seen edge-on).
    public var inverse: Homography? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let (a, b, c) = rows
        // The adjugate's rows, divided by the determinant.
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        return Homography(rows: r0 / det, r1 / det, r2 / det)
    }

    public static func == (a: Homography, b: Homography) -> Bool {
        a.rows.0 == b.rows.0 && a.rows.1 == b.rows.1 && a.rows.2 == b.rows.2
    }

    public var description: String { "Homography(\(rows.0), \(rows.1), \(rows.2))" }

}

/// A 4 × 4 matrix by rows, stored inline (building a `rotation3DEffect` allocates nothing).
struct Matrix4 {
    var rows: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)

    init(_ r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
        rows = (r0, r1, r2, r3)
    }

    static let identity = Matrix4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// `a · b`, each entry summed over k = 0…3 in order from 0.
    static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        func row(_ r: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4<Double>.zero + r.x * b.rows.0 + r.y * b.rows.1 + r.z * b.rows.2 + r.w * b.rows.3
        }
        return Matrix4(row(a.rows.0), row(a.rows.1), row(a.rows.2), row(a.rows.3))
    }
}
