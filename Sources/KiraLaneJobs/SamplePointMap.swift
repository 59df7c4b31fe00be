import KiraGeometry

/// A face's inverse homography on one canvas row, in single precision: where the centre of each
/// pixel of the row samples the face when the face is not drawn smaller than its texels.
///
/// Canvas column `x` (its centre `cx = x + 0.5`, exact as a `Float`) maps to the homogeneous face
/// point `column * cx + origin`, each product and sum rounded to `Float` (never fused): `column`
/// is the homography's first row rounded to `Float`, `origin` its second row times the row's
/// centre plus its third, summed in `Double` and rounded once. The point is then two `Float`
/// divisions: twice the lanes a vector of the same arithmetic in `Double` (the projection's loop
/// 88 → 55 cycles per sixteen pixels by llvm-mca's Zen 4 model; docs/performance.md), and a
/// sample point moves from where `Double` puts it by under 10⁻³ texel for a 1260×1760 face on
/// a 2340×3170 canvas (`Tests/LLVMPipe/sample-point-error.py`), a channel by one 8-bit step at
/// most in the frames measured.
///
/// The scalar reference of the C kernels' `kira_bilinear_taps_of` (which takes these six floats
/// in its `kira_row_map`): the same operations in the same order, so that both projection paths
/// give the same bytes. A minified pixel's footprint (``FaceFootprint``) and the edges' coverage
/// stay in `Double`.
@usableFromInline
package struct SamplePointMap {
    @usableFromInline package let column: SIMD3<Float>
    @usableFromInline package let origin: SIMD3<Float>

    @inlinable
    package init(inverse: Homography, y: Int) {
        let m = inverse.rows
        column = SIMD3<Float>(m.0)
        origin = SIMD3<Float>(m.1 * (Double(y) + 0.5) + m.2)
    }

    /// Where the centre of canvas column `x` lands on the face, in face pixels.
    @inlinable
    package func point(x: Int) -> SIMD2<Float> {
        let h = column * (Float(x) + 0.5) + origin
        return SIMD2(h.x / h.z, h.y / h.z)
    }
}
