import CKiraProjection
import KiraGeometry

/// What one canvas pixel spans on a face: where its centre lands, how the face moves under a
/// step along each canvas axis (the inverse map's Jacobian), and the grid of bilinear taps that
/// filter a face drawn smaller than its texels.
///
/// Kira filters each canvas pixel over a footprint 1.5 pixels wide (±0.75 px). Bilinear
/// interpolation reads ±1 texel around a point, ±0.67 px or more while a pixel spans at most 1.5
/// texels along each canvas axis: such a pixel takes the one bilinear sample it always took, so
/// frames of mild tilts and flips are unchanged. Beyond, the pixel is minified along that axis
/// and averages taps spread over `1.5 × (length − 1.5)` texels (with their own ±1 texel, about
/// the footprint), at most a texel apart and at most `KIRA_FOOTPRINT_TAPS` a side; the spread
/// grows from nothing at the onset, so the filter has no seam where it starts. The grid follows
/// the canvas axes mapped onto the face (a parallelogram there), so a flip's foreshortened face
/// is filtered across it and left sharp along it. Why an area filter and not a mip pyramid:
/// docs/performance.md, "Minification".
///
/// The scalar reference of the C kernels' `kira_footprint_of` and `kira_footprint_mean`: the
/// same operations in the same order, so that both projection paths give the same bytes.
struct FaceFootprint {
    /// Where the pixel's centre lands on the face, in face pixels.
    let centre: SIMD2<Double>
    /// The face's change under a step of one canvas pixel along x, and along y.
    let alongX: SIMD2<Double>
    let alongY: SIMD2<Double>
    /// Taps along each canvas axis: 1 where the pixel is not minified along it.
    let columns: Int
    let rows: Int
    /// The canvas pixels the taps spread over along each axis.
    let spanX: Double
    let spanY: Double

    /// The footprint of the pixel whose centre the inverse map `inverse` takes to `h`
    /// (homogeneous).
    init(inverse: Homography, h: SIMD3<Double>) {
        let (m0, m1, _) = inverse.rows
        let u = h.x / h.z, v = h.y / h.z
        centre = SIMD2(u, v)
        // The derivatives of (hx / hz, hy / hz) along the canvas axes.
        alongX = SIMD2((m0.x - u * m0.z) / h.z, (m0.y - v * m0.z) / h.z)
        alongY = SIMD2((m1.x - u * m1.z) / h.z, (m1.y - v * m1.z) / h.z)
        (columns, spanX) = Self.taps(length: ((alongX * alongX).sum()).squareRoot())
        (rows, spanY) = Self.taps(length: ((alongY * alongY).sum()).squareRoot())
    }

    /// Whether the pixel spans more than 1.5 texels along some canvas axis.
    var isMinified: Bool { columns > 1 || rows > 1 }

    /// The taps along an axis whose step spans `length` texels (NaN or infinite: 1), and the
    /// canvas pixels they spread over.
    private static func taps(length: Double) -> (count: Int, span: Double) {
        let extent = KIRA_FOOTPRINT_WIDTH * (length - KIRA_FOOTPRINT_ONSET)
        guard extent > 0, extent < .infinity else { return (1, 0) }
        let most = Int(KIRA_FOOTPRINT_TAPS)
        let count = min(1 + Int(min(extent, Double(most)).rounded(.up)), most)
        return (count, extent / length)
    }

    /// Where tap (`i`, `j`) lands on the face: taps spread evenly from −span/2 to span/2 canvas
    /// pixels about the centre along each axis.
    func tap(_ i: Int, _ j: Int) -> SIMD2<Double> {
        let a = columns > 1 ? (Double(i) / Double(columns - 1) - 0.5) * spanX : 0
        let b = rows > 1 ? (Double(j) / Double(rows - 1) - 0.5) * spanY : 0
        return centre + (a * alongX + b * alongY)
    }
}
