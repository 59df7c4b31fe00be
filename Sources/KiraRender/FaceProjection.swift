import CKiraProjection
import KiraGeometry

/// A face placed on the canvas: the inverse map, the quad it covers and its opacity. Pure
/// geometry: where a face lands and how much of each canvas pixel it covers.
struct FaceProjection {
    /// Canvas points to face pixels.
    let inverse: Homography
    let faceSize: SIMD2<Int>
    let opacity: Float
    /// Inward edge lines of the quad, `a·x + b·y + c ≥ 0` inside, normalised so that the value is
    /// the distance in pixels.
    let edges: Quad<SIMD3<Double>>
    /// Rows and columns the quad touches.
    let rows: Range<Int>
    let columns: Range<Int>
    /// Whether some pixel the quad touches may see the face minified (``FaceFootprint``): false
    /// guarantees that every pixel takes one bilinear sample, so the fast path may skip the test.
    let mayMinify: Bool

    /// Nil when the face is edge-on (no area) or reaches behind the eye.
    init?(homography: Homography, faceSize: SIMD2<Int>, opacity: Float, canvas: SIMD2<Int>) {
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
        let x0 = max(0, Int(low.x.rounded(.down))), x1 = min(canvas.x, Int(high.x.rounded(.up)) + 1)
        let y0 = max(0, Int(low.y.rounded(.down))), y1 = min(canvas.y, Int(high.y.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return nil }
        self.inverse = inverse
        self.faceSize = faceSize
        self.opacity = opacity
        self.edges = edges
        rows = y0..<y1
        columns = x0..<x1
        mayMinify = Self.mayMinify(inverse, columns: columns, rows: rows)
    }

    /// Whether a pixel centre in `columns` × `rows` may span more than 4/3 texels along a canvas
    /// axis, by a bound: a step along x spans `|m0.xy · hz − (hx, hy) · m0.z| / hz²` texels
    /// (likewise along y with m1), whose numerator is the length of an affine function of the
    /// canvas point, largest at a corner of the rectangle, and whose `hz` is affine, smallest in
    /// magnitude at a corner when it keeps its sign.
    private static func mayMinify(_ inverse: Homography, columns: Range<Int>, rows: Range<Int>) -> Bool {
        let (m0, m1, _) = inverse.rows
        var numerator = 0.0, depth = Double.infinity
        var signs: Set<Bool> = []
        for x in [columns.lowerBound, columns.upperBound - 1] {
            for y in [rows.lowerBound, rows.upperBound - 1] {
                let h = inverse.homogeneous(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                let xy = SIMD2(h.x, h.y)
                for m in [m0, m1] {
                    let n = SIMD2(m.x, m.y) * h.z - xy * m.z
                    numerator = max(numerator, ((n * n).sum()).squareRoot())
                }
                depth = min(depth, abs(h.z))
                signs.insert(h.z > 0)
            }
        }
        guard signs.count == 1, depth > 0 else { return true }
        // A margin for rounding: a pixel's own length is computed another way.
        let bound = numerator / (depth * depth) * (1 + 1e-6)
        return !(KIRA_FOOTPRINT_WIDTH * bound - KIRA_FOOTPRINT_BILINEAR <= 0)
    }

    /// The columns of row `y` whose pixel the quad may touch (`covered`), and those whose whole
    /// pixel lies inside every edge (`inside`, a sub-range): a convex quad meets a row in one run.
    func spans(y: Int) -> (covered: Range<Int>, inside: Range<Int>) {
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
    func coverage(x: Int, y: Int) -> Double {
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
struct Quad<Element>: RandomAccessCollection, MutableCollection {
    private var values: (Element, Element, Element, Element)

    init(_ a: Element, _ b: Element, _ c: Element, _ d: Element) {
        values = (a, b, c, d)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 4 }

    subscript(index: Int) -> Element {
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
