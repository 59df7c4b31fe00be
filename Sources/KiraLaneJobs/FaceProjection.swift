import CKiraProjection
import KiraGeometry

/// A face placed on the canvas: the inverse map, the quad it covers and its opacity. Pure
/// geometry: where a face lands and how much of each canvas pixel it covers. What the projection
/// asks per row and per edge pixel is inlinable, so that each level's kernels build it at their
/// level (``mayMinify(y:columns:)``, once a row, may stay a call): a `package` type's `@inlinable`
/// members cross modules as calls only (Swift 6.3) unless the type and what they read are
/// `@usableFromInline`.
@usableFromInline
package struct FaceProjection {
    /// Canvas points to face pixels.
    @usableFromInline package let inverse: Homography
    package let faceSize: SIMD2<Int>
    package let opacity: Float
    /// Inward edge lines of the quad, `a·x + b·y + c ≥ 0` inside, normalised so that the value is
    /// the distance in pixels.
    @usableFromInline package let edges: Quad<SIMD3<Double>>
    /// Rows and columns the quad touches.
    package let rows: Range<Int>
    @usableFromInline package let columns: Range<Int>

    /// Nil when the face is edge-on (no area) or reaches behind the eye.
    package init?(homography: Homography, faceSize: SIMD2<Int>, opacity: Float, canvas: SIMD2<Int>) {
        let size = SIMD2(Double(faceSize.x), Double(faceSize.y))
        guard let c0 = homography.apply(SIMD2(0, 0)), let c1 = homography.apply(SIMD2(size.x, 0)),
              let c2 = homography.apply(size), let c3 = homography.apply(SIMD2(0, size.y)),
              let inverse = homography.inverse
        else { return nil }
        let corners = Quad(c0, c1, c2, c3)
        var area = 0.0
        for i in 0..<4 {
            let p = corners[i], q = corners[(i + 1) % 4]
            area += p.x * q.y - q.x * p.y
        }
        guard abs(area) > 1e-9 else { return nil }
        let sign: Double = area > 0 ? 1 : -1
        var edges = Quad(SIMD3<Double>.zero, .zero, .zero, .zero)
        for i in 0..<4 {
            let p = corners[i], q = corners[(i + 1) % 4]
            let d = q - p
            let length = (d * d).sum().squareRoot()
            guard length > 0 else { return nil }
            // Left of p→q is inside for a counter-clockwise quad (in y-down coordinates, area > 0).
            let a = -d.y * sign / length, b = d.x * sign / length
            edges[i] = SIMD3(a, b, -(a * p.x + b * p.y))
        }
        let low = corners.reduce(corners[0]) { pointwiseMin($0, $1) }
        let high = corners.reduce(corners[0]) { pointwiseMax($0, $1) }
        // Clamped to the canvas as doubles, then converted: a card scaled or thrown far has
        // corners beyond any Int, where the conversion traps (the same rows and columns otherwise).
        guard low.x.isFinite, low.y.isFinite, high.x.isFinite, high.y.isFinite else { return nil }
        func clamped(_ value: Double, _ limit: Int) -> Int { Int(max(0, min(Double(limit), value))) }
        let x0 = clamped(low.x.rounded(.down), canvas.x), x1 = clamped(high.x.rounded(.up) + 1, canvas.x)
        let y0 = clamped(low.y.rounded(.down), canvas.y), y1 = clamped(high.y.rounded(.up) + 1, canvas.y)
        guard x0 < x1, y0 < y1 else { return nil }
        self.inverse = inverse
        self.faceSize = faceSize
        self.opacity = opacity
        self.edges = edges
        rows = y0..<y1
        columns = x0..<x1
    }

    /// Whether a pixel of row `y` among `columns` may see the face minified (``FaceFootprint``):
    /// false guarantees that each takes one bilinear sample, so the fast path may skip the test.
    /// A step along x spans `|m0.xy · hz − (hx, hy) · m0.z| / hz²` texels (likewise along y with
    /// m1), and along the row both the vector and `hz` are affine: the largest length is at an
    /// end or where its derivative vanishes, found exactly.
    @inlinable @inline(__always)
    package func mayMinify(y: Int, columns: Range<Int>) -> Bool {
        guard !columns.isEmpty else { return false }
        let (m0, m1, _) = inverse.rows
        let h0 = inverse.homogeneous(SIMD2(Double(columns.lowerBound) + 0.5, Double(y) + 0.5))
        let h1 = inverse.homogeneous(SIMD2(Double(columns.upperBound - 1) + 0.5, Double(y) + 0.5))
        // hz must keep its sign along the row (it does wherever the face is in front).
        guard h0.z != 0, h1.z != 0, (h0.z > 0) == (h1.z > 0) else { return true }
        // Inlined too: a copy left out of line is one symbol that the linker keeps from one level only.
        @inline(__always) func longest(_ m: SIMD3<Double>) -> Double {
            func numerator(_ h: SIMD3<Double>) -> SIMD2<Double> { SIMD2(m.x, m.y) * h.z - SIMD2(h.x, h.y) * m.z }
            return Self.largestRatio(numerator(h0), numerator(h1), h0.z, h1.z)
        }
        let longest = max(max(0, longest(m0)), longest(m1))
        // A margin for rounding: a pixel's own length is computed another way.
        return !(longest * 1.001 <= KIRA_FOOTPRINT_ONSET)
    }

    /// The largest `|n(t)| / z(t)²` for `t` in 0...1, where `n` and `z` run linearly from `n0`,
    /// `z0` to `n1`, `z1` and `z` keeps its sign: at an end, or where the derivative of
    /// `|n|² / z⁴` vanishes, a quadratic in `t`.
    @inlinable @inline(__always)
    static func largestRatio(_ n0: SIMD2<Double>, _ n1: SIMD2<Double>, _ z0: Double, _ z1: Double) -> Double {
        let sign: Double = z0 > 0 ? 1 : -1
        let c = z0 * sign, d = (z1 - z0) * sign
        let slope = n1 - n0
        // |n(t)|² = a t² + b t + e
        let a = (slope * slope).sum(), b = 2 * (n0 * slope).sum(), e = (n0 * n0).sum()
        func ratio(_ t: Double) -> Double { max(0, a * t * t + b * t + e).squareRoot() / ((c + d * t) * (c + d * t)) }
        var largest = max(ratio(0), ratio(1))
        // (2a t + b)(c + d t) − 4 d (a t² + b t + e) = 0
        let qa = -2 * a * d, qb = 2 * a * c - 3 * b * d, qc = b * c - 4 * e * d
        // The roots, none, one or two (NaN where there is none: not in 0...1), without an array:
        // this runs on every row of every face.
        var roots = (Double.nan, Double.nan)
        if qa == 0 {
            if qb != 0 { roots.0 = -qc / qb }
        } else {
            let discriminant = qb * qb - 4 * qa * qc
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                roots = ((-qb + root) / (2 * qa), (-qb - root) / (2 * qa))
            }
        }
        if roots.0 > 0 && roots.0 < 1 { largest = max(largest, ratio(roots.0)) }
        if roots.1 > 0 && roots.1 < 1 { largest = max(largest, ratio(roots.1)) }
        return largest
    }

    /// The columns of row `y` whose pixel the quad may touch (`covered`), and those whose whole
    /// pixel lies inside every edge (`inside`, a sub-range): a convex quad meets a row in one run.
    @inlinable @inline(__always)
    package func spans(y: Int) -> (covered: Range<Int>, inside: Range<Int>) {
        let cy = Double(y) + 0.5
        // Half the pixel's diagonal: a pixel whose centre is this far inside (outside) an edge is
        // wholly inside (outside) it.
        let reach = 0.7072
        var covered = (lower: Double(columns.lowerBound), upper: Double(columns.upperBound))
        var inside = covered
        for e in edges {
            // Along the row the edge value is linear in x: e.x * (x + 0.5) + base.
            let base = e.y * cy + e.z + e.x * 0.5
            if e.x == 0 {
                if base <= -reach { return (columns.lowerBound..<columns.lowerBound, columns.lowerBound..<columns.lowerBound) }
                if base < reach { inside = (0, 0) }
                continue
            }
            // x where the value reaches -reach (touching) and +reach (wholly inside).
            let touch = (-reach - base) / e.x, whole = (reach - base) / e.x
            if e.x > 0 {
                covered.lower = max(covered.lower, touch.rounded(.down))
                inside.lower = max(inside.lower, whole.rounded(.up))
            } else {
                covered.upper = min(covered.upper, touch.rounded(.up) + 1)
                inside.upper = min(inside.upper, whole.rounded(.down) + 1)
            }
        }
        let c0 = Int(max(covered.lower, Double(columns.lowerBound)))
        let c1 = Int(min(covered.upper, Double(columns.upperBound)))
        guard c0 < c1 else { return (c0..<c0, c0..<c0) }
        let i0 = min(max(Int(max(inside.lower, Double(c0))), c0), c1)
        let i1 = max(min(Int(min(inside.upper, Double(c1))), c1), i0)
        return (c0..<c1, i0..<i1)
    }

    /// The share of the pixel square at (`x`, `y`) that the quad covers, exactly.
    @inlinable @inline(__always)
    package func coverage(x: Int, y: Int) -> Double {
        let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        var nearest = Double.infinity
        for e in edges {
            let d = e.x * centre.x + e.y * centre.y + e.z
            if d <= -0.7072 { return 0 }  // the whole pixel is outside this edge
            nearest = min(nearest, d)
        }
        if nearest >= 0.7072 { return 1 }  // the whole pixel is inside every edge
        // Clip the pixel square by each edge (Sutherland–Hodgman) and measure what is left. A
        // square clipped by four lines has at most eight corners; two stack buffers ping-pong.
        return withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 32) { buffer in
            var polygon = buffer.baseAddress!, clipped = polygon + 16
            polygon[0] = SIMD2(Double(x), Double(y))
            polygon[1] = SIMD2(Double(x + 1), Double(y))
            polygon[2] = SIMD2(Double(x + 1), Double(y + 1))
            polygon[3] = SIMD2(Double(x), Double(y + 1))
            var count = 4
            for e in edges {
                var kept = 0
                for i in 0..<count {
                    let p = polygon[i], q = polygon[(i + 1) % count]
                    let dp = e.x * p.x + e.y * p.y + e.z, dq = e.x * q.x + e.y * q.y + e.z
                    if dp >= 0 {
                        clipped[kept] = p
                        kept += 1
                    }
                    if (dp >= 0) != (dq >= 0) {
                        clipped[kept] = p + (q - p) * (dp / (dp - dq))
                        kept += 1
                    }
                }
                swap(&polygon, &clipped)
                count = kept
                if count == 0 { return 0 }
            }
            var area = 0.0
            for i in 0..<count {
                let p = polygon[i], q = polygon[(i + 1) % count]
                area += p.x * q.y - q.x * p.y
            }
            return min(1, abs(area) / 2)
        }
    }
}


/// Four values stored inline, a quad's corners or edges: iterating them allocates nothing.
@usableFromInline
package struct Quad<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline var values: (Element, Element, Element, Element)

    @inlinable
    package init(_ a: Element, _ b: Element, _ c: Element, _ d: Element) {
        values = (a, b, c, d)
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { 4 }

    @inlinable
    package subscript(index: Int) -> Element {
        get {
            switch index {
            case 0: values.0
            case 1: values.1
            case 2: values.2
            default: values.3
            }
        }
        set {
            switch index {
            case 0: values.0 = newValue
            case 1: values.1 = newValue
            case 2: values.2 = newValue
            default: values.3 = newValue
            }
        }
    }
}
