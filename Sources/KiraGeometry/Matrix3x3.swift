/// A 3 × 3 float matrix stored as three columns, like `simd_float3x3` (not available on Linux).
public struct Matrix3x3: Sendable, Equatable {
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// A matrix with the given columns, as `simd_float3x3(_:_:_:)`.
    public init(_ c0: SIMD3<Float>, _ c1: SIMD3<Float>, _ c2: SIMD3<Float>) {
        columns = (c0, c1, c2)
    }

    /// A matrix with the given rows.
    public init(rows r0: SIMD3<Float>, _ r1: SIMD3<Float>, _ r2: SIMD3<Float>) {
        columns = (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    public static let identity = Matrix3x3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    public var transpose: Matrix3x3 { Matrix3x3(rows: columns.0, columns.1, columns.2) }

    /// Row `i` (0, 1 or 2).
    public func row(_ i: Int) -> SIMD3<Float> {
        SIMD3(columns.0[i], columns.1[i], columns.2[i])
    }

    /// `simd_mul(m, v)`: the columns weighted by `v`'s components, summed in column order.
    public static func * (m: Matrix3x3, v: SIMD3<Float>) -> SIMD3<Float> {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z
    }

    /// `simd_mul(a, b)`.
    public static func * (a: Matrix3x3, b: Matrix3x3) -> Matrix3x3 {
        Matrix3x3(a * b.columns.0, a * b.columns.1, a * b.columns.2)
    }

    public static func == (a: Matrix3x3, b: Matrix3x3) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
    }
}
