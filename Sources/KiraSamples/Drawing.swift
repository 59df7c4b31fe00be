#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif
import KiraImage

// A tiny signed-distance rasteriser. Shapes are functions from a point to its signed distance
// (negative inside); a distance of half a pixel either side of the edge becomes partial coverage,
// which is all the anti-aliasing the sample card needs.

/// A point on the card in millimetres, origin at the card's centre, y down.
///
/// The centred origin makes a pixel and its left-right mirror land on exactly negated x values,
/// so shapes drawn through `abs` come out bit-for-bit symmetric.
typealias Point = SIMD2<Float>

/// Straight (not premultiplied) RGBA, each channel in 0...1.
typealias Color = SIMD4<Float>

extension SIMD4 where Scalar == Float {
    /// An sRGB colour written as `0xRRGGBB`.
    static func hex(_ rgb: UInt32, alpha: Float = 1) -> Color {
        Color(Float((rgb >> 16) & 0xFF) / 255, Float((rgb >> 8) & 0xFF) / 255, Float(rgb & 0xFF) / 255, alpha)
    }

    func withAlpha(_ alpha: Float) -> Color { Color(x, y, z, alpha) }
}

// MARK: - Scalar helpers

@inline(__always) func clamp01(_ v: Float) -> Float { min(max(v, 0), 1) }

@inline(__always) func mix(_ a: Color, _ b: Color, _ t: Float) -> Color { a + (b - a) * t }

@inline(__always) func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
    let t = clamp01((x - edge0) / (edge1 - edge0))
    return t * t * (3 - 2 * t)
}

@inline(__always) func length(_ p: Point) -> Float { (p.x * p.x + p.y * p.y).squareRoot() }

@inline(__always) func dot(_ a: Point, _ b: Point) -> Float { a.x * b.x + a.y * b.y }

/// Folds a point into the first quadrant, for shapes symmetric about both axes.
@inline(__always) func fold(_ p: Point) -> Point { Point(abs(p.x), abs(p.y)) }

/// A value in `0..<1` scrambled from `n` (a 32-bit integer finaliser): the samples' only source of
/// variety, so they come out the same on every run.
func hash01(_ n: Int) -> Float {
    var x = UInt32(truncatingIfNeeded: n) &* 0x9E37_79B9
    x ^= x >> 16
    x &*= 0x85EB_CA6B
    x ^= x >> 13
    x &*= 0xC2B2_AE35
    x ^= x >> 16
    return Float(x >> 8) / Float(1 << 24)
}

/// A piecewise-linear colour ramp; build it once, outside the per-pixel closures.
struct Gradient {
    let stops: [(at: Float, color: Color)]

    init(_ stops: [(Float, Color)]) { self.stops = stops.map { (at: $0.0, color: $0.1) } }

    func callAsFunction(_ t: Float) -> Color {
        if t <= stops[0].at { return stops[0].color }
        for i in 1..<stops.count where t < stops[i].at {
            let a = stops[i - 1], b = stops[i]
            return mix(a.color, b.color, (t - a.at) / (b.at - a.at))
        }
        return stops[stops.count - 1].color
    }
}

// MARK: - Shapes

/// An axis-aligned box in card millimetres, used to limit which pixels a fill visits.
struct Box {
    var min: Point
    var max: Point

    static let everywhere = Box(min: Point(-.infinity, -.infinity), max: Point(.infinity, .infinity))

    init(min: Point, max: Point) {
        self.min = min
        self.max = max
    }

    init(center: Point, halfSize: Point) {
        self.init(min: center - halfSize, max: center + halfSize)
    }

    func intersection(_ other: Box) -> Box {
        Box(min: pointwiseMax(min, other.min), max: pointwiseMin(max, other.max))
    }
}

/// A rectangle with rounded corners: the card, its panels and windows.
struct RoundedRect {
    var center: Point
    var halfSize: Point
    var radius: Float

    func distance(_ p: Point) -> Float {
        SDF.roundedBox(p, center: center, halfSize: halfSize, radius: radius)
    }

    var box: Box { Box(center: center, halfSize: halfSize) }

    /// A box wholly inside the rectangle, corners included: the hole for an outline's fill.
    var innerBox: Box { Box(center: center, halfSize: halfSize - radius) }

    /// The same rectangle shrunk by `d` on every side (grown for negative `d`), corners kept concentric.
    func inset(by d: Float) -> RoundedRect {
        RoundedRect(center: center, halfSize: halfSize - d, radius: max(radius - d, 0))
    }
}

/// Signed distance functions (after Inigo Quilez), in millimetres.
enum SDF {
    static func circle(_ p: Point, center: Point, radius: Float) -> Float {
        length(p - center) - radius
    }

    static func roundedBox(_ p: Point, center: Point, halfSize: Point, radius: Float) -> Float {
        let qx = abs(p.x - center.x) - halfSize.x + radius
        let qy = abs(p.y - center.y) - halfSize.y + radius
        return length(Point(max(qx, 0), max(qy, 0))) + min(max(qx, qy), 0) - radius
    }

    /// A stadium: the segment `a`–`b` thickened by `radius`. Text-like bars are made of these.
    static func capsule(_ p: Point, _ a: Point, _ b: Point, radius: Float) -> Float {
        let pa = p - a, ba = b - a
        let h = clamp01(dot(pa, ba) / dot(ba, ba))
        return length(pa - ba * h) - radius
    }

    /// An ellipse with semi-axes `radii`; a first-order estimate, exact on the curve itself,
    /// which is where coverage is decided.
    static func ellipse(_ p: Point, center: Point, radii: Point) -> Float {
        let q = p - center
        let k0 = length(q / radii)
        let k1 = length(q / (radii * radii))
        return k1 > 0 ? k0 * (k0 - 1) / k1 : -min(radii.x, radii.y)
    }

    /// A simple polygon given by its vertices in either winding.
    static func polygon(_ p: Point, _ v: [Point]) -> Float {
        var d = dot(p - v[0], p - v[0])
        var s: Float = 1
        var j = v.count - 1
        for i in 0..<v.count {
            let e = v[j] - v[i]
            let w = p - v[i]
            let b = w - e * clamp01(dot(w, e) / dot(e, e))
            d = min(d, dot(b, b))
            let c0 = p.y >= v[i].y, c1 = p.y < v[j].y, c2 = e.x * w.y > e.y * w.x
            if (c0 && c1 && c2) || (!c0 && !c1 && !c2) { s = -s }
            j = i
        }
        return s * d.squareRoot()
    }

    /// The signed distance to the line through `a` and `b`, negative on the side counter-clockwise
    /// of `a`→`b` as seen on screen (y down): right of a line drawn downwards.
    static func halfPlane(_ p: Point, _ a: Point, _ b: Point) -> Float {
        let e = b - a
        return (e.x * (p.y - a.y) - e.y * (p.x - a.x)) / length(e)
    }

    /// A ring of `width` centred on the outline of the shape whose distance is `d`.
    @inline(__always) static func outline(_ d: Float, width: Float) -> Float {
        abs(d) - width / 2
    }
}

/// The vertices of a star with `points` tips, the first tip straight up (before `rotation`, radians).
func starVertices(center: Point, outer: Float, inner: Float, points: Int, rotation: Float = 0) -> [Point] {
    (0..<(2 * points)).map { i in
        let r = i.isMultiple(of: 2) ? outer : inner
        let a = rotation + Float(i) * .pi / Float(points)
        return center + Point(sin(a) * r, -cos(a) * r)
    }
}

// MARK: - Canvas

/// A floating-point canvas of premultiplied RGBA, addressed in card millimetres.
///
/// A canvas may hold only a band of the card's rows (``rows``): drawing the same design on the
/// bands and stacking them gives the same pixels as one canvas, because every pixel is computed
/// from its own position alone. That is how ``SampleCard`` draws on all cores.
struct Canvas {
    static let cardSize = Point(63, 88)

    let width: Int
    let height: Int
    /// The rows of the `width`×`height` card this canvas holds; fills outside them do nothing.
    let rows: Range<Int>
    /// Millimetres per pixel on each axis; the two differ when a caller asks for a stretched card.
    let mmPerPixel: Point
    /// Turns a distance in millimetres into one in pixels. The coarser axis is used so an edge is
    /// never sharper than a pixel in either direction.
    let pixelsPerMM: Float
    /// Premultiplied RGBA of ``rows``, top to bottom.
    private(set) var pixels: [SIMD4<Float>]
    /// Every fill is intersected with this shape (art inside the art window, for instance).
    var clip: RoundedRect?

    init(width: Int, height: Int, rows: Range<Int>? = nil, background: Color = .zero) {
        precondition(width > 0 && height > 0, "a sample card needs at least one pixel")
        let rows = rows ?? 0..<height
        precondition(rows.lowerBound >= 0 && rows.upperBound <= height, "rows outside the card")
        self.width = width
        self.height = height
        self.rows = rows
        mmPerPixel = Canvas.cardSize / Point(Float(width), Float(height))
        pixelsPerMM = 1 / max(mmPerPixel.x, mmPerPixel.y)
        let premultiplied = SIMD4(background.x * background.w, background.y * background.w,
                                  background.z * background.w, background.w)
        pixels = Array(repeating: premultiplied, count: width * rows.count)
    }

    /// The size of one pixel in millimetres, for sizes that must not vanish on small canvases.
    var pixel: Float { max(mmPerPixel.x, mmPerPixel.y) }

    /// Composites `paint` over the canvas wherever `shape` is negative, with anti-aliased edges.
    ///
    /// Only pixels within `bounds` (grown by the anti-aliasing margin) and outside `hole` (shrunk
    /// by it) are visited. Both are speed hints: the shape must lie within `bounds` and must not
    /// reach into `hole`, which lets thin outlines skip the inside of what they outline.
    mutating func fill(
        _ bounds: Box = .everywhere,
        excluding hole: Box? = nil,
        shape: (Point) -> Float = { _ in -.infinity },
        paint: (Point) -> Color
    ) {
        var bounds = bounds
        if let clip { bounds = bounds.intersection(clip.box) }
        let margin = Point(repeating: 1.5 * pixel)
        let half = Point(Float(width), Float(height)) * 0.5
        let lo = (bounds.min - margin) / mmPerPixel + half
        let hi = (bounds.max + margin) / mmPerPixel + half
        guard lo.x < hi.x, lo.y < hi.y else { return }
        let x0 = Int(max(lo.x.rounded(.down), 0)), x1 = Int(min(hi.x.rounded(.up), Float(width)))
        let y0 = max(Int(max(lo.y.rounded(.down), 0)), rows.lowerBound)
        let y1 = min(Int(min(hi.y.rounded(.up), Float(height))), rows.upperBound)
        guard x0 < x1, y0 < y1 else { return }
        // The skipped pixels: those lying wholly inside the shrunk hole.
        var holeX = 0..<0, holeY = 0..<0
        if let hole {
            let hlo = ((hole.min + margin) / mmPerPixel + half).rounded(.up)
            let hhi = ((hole.max - margin) / mmPerPixel + half).rounded(.down)
            if hlo.x < hhi.x, hlo.y < hhi.y {
                holeX = Int(hlo.x)..<Int(hhi.x)
                holeY = Int(hlo.y)..<Int(hhi.y)
            }
        }
        // Locals, because the loop below holds exclusive access to `pixels`.
        let clip = clip, pixelsPerMM = pixelsPerMM, width = width, mmPerPixel = mmPerPixel
        let firstRow = rows.lowerBound
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in y0..<y1 {
                let inHoleRow = holeY.contains(y)
                for x in x0..<x1 where !(inHoleRow && holeX.contains(x)) {
                    let p = (Point(Float(x), Float(y)) + 0.5 - half) * mmPerPixel
                    var d = shape(p)
                    if let clip { d = max(d, clip.distance(p)) }
                    let coverage = clamp01(0.5 - d * pixelsPerMM)
                    if coverage <= 0 { continue }
                    let c = paint(p)
                    let a = clamp01(c.w) * coverage
                    if a <= 0 { continue }
                    let i = (y - firstRow) * width + x
                    buffer[i] = SIMD4(c.x * a, c.y * a, c.z * a, a) + buffer[i] * (1 - a)
                }
            }
        }
    }

    /// Fills `shape` with one colour.
    mutating func fill(_ bounds: Box = .everywhere, excluding hole: Box? = nil, shape: (Point) -> Float,
                       color: Color)
    {
        fill(bounds, excluding: hole, shape: shape, paint: { _ in color })
    }

    /// Strokes the outline of `rect` with a line of `width` centred on its edge.
    mutating func stroke(_ rect: RoundedRect, width: Float, paint: (Point) -> Color) {
        fill(rect.inset(by: -width).box, excluding: rect.inset(by: width).innerBox,
             shape: { SDF.outline(rect.distance($0), width: width) }, paint: paint)
    }

    mutating func stroke(_ rect: RoundedRect, width: Float, color: Color) {
        stroke(rect, width: width, paint: { _ in color })
    }

    /// The canvas's pixels (``rows`` only) as 8-bit straight-alpha RGBA; pixels whose alpha
    /// rounds to zero come out all zero.
    func rgba8() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 4 * pixels.count)
        for (i, p) in pixels.enumerated() {
            let alpha = quantize(p.w)
            guard alpha > 0 else { continue }
            let a = clamp01(p.w)
            out[4 * i] = quantize(p.x / a)
            out[4 * i + 1] = quantize(p.y / a)
            out[4 * i + 2] = quantize(p.z / a)
            out[4 * i + 3] = alpha
        }
        return out
    }

    /// The canvas's pixels (``rows`` only) as opaque 8-bit grey RGBA, for masks painted in greys
    /// over opaque black: the red channel is taken as the level.
    func grey8() -> [UInt8] {
        var out = [UInt8](repeating: 255, count: 4 * pixels.count)
        for (i, p) in pixels.enumerated() {
            let v = quantize(p.x)
            out[4 * i] = v
            out[4 * i + 1] = v
            out[4 * i + 2] = v
        }
        return out
    }
}

@inline(__always) private func quantize(_ v: Float) -> UInt8 {
    UInt8(clamp01(v) * 255 + 0.5)
}
