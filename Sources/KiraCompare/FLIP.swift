import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// LDR-ꟻLIP (Andersson et al., "ꟻLIP: A Difference Evaluator for Alternating Images", HPG 2020):
/// a per-pixel perceptual error in 0...1 between a reference and a test image, as seen when
/// flipping between them at a given viewing distance.
///
/// Colour: sRGB is decoded to linear RGB (D65) and taken to YCxCz; each channel is filtered by
/// its contrast sensitivity (``FLIPKernels``, clamp-to-edge borders); the result, back in linear
/// RGB clamped to 0...1, goes to CIELAB with the Hunt adjustment (a and b scaled by L/100), and
/// the HyAB distance `|ΔL| + √(Δa² + Δb²)` is raised to `qc = 0.7` and redistributed: errors
/// below `pc · cmax` (`pc = 0.4`; `cmax` the HyAB^qc distance of Hunt-adjusted green and blue)
/// map linearly to `0...pt` (`pt = 0.95`), the rest linearly to `pt...1`.
/// Features: edges and points (first and second derivatives of a Gaussian) of the achromatic
/// channel `Y / Y_white`; their magnitudes' difference `max(Δedge, Δpoint) / √2` raised to
/// `qf = 0.5`. The error is `colour^(1 − feature)`.
///
/// In float32, on sixteen lanes, in bands of rows in parallel, with every filter separable and the
/// per-pixel steps fused into the vertical passes (`FLIPBand`); `FLIPReference` computes the
/// same thing pixel by pixel.
public enum FLIP {
    static let qc: Float = 0.7, qf: Float = 0.5, pc: Float = 0.4, pt: Float = 0.95

    /// Linear sRGB (D65) to CIE XYZ, and back.
    static let toXYZ: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = (
        SIMD3(0.4124564, 0.3575761, 0.1804375), SIMD3(0.2126729, 0.7151522, 0.0721750), SIMD3(0.0193339, 0.1191920, 0.9503041))
    static let fromXYZ: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) = (
        SIMD3(3.2404542, -1.5371385, -0.4985314), SIMD3(-0.9692660, 1.8760108, 0.0415560), SIMD3(0.0556434, -0.2040259, 1.0572252))
    /// The reference white: linear RGB (1, 1, 1) in XYZ.
    static let white = SIMD3<Float>((toXYZ.0).sum(), (toXYZ.1).sum(), (toXYZ.2).sum())

    /// The per-pixel ꟻLIP errors of `test` against `reference` (row-major, 0...1), both images
    /// composited over `background` first.
    ///
    /// - Precondition: the images have the same size.
    public static func errors(reference: AnyRGBAImage, test: AnyRGBAImage, viewing: FLIPViewing = .standard,
                              background: FLIPBackground = .standard) -> [Float] {
        errors(reference: reference, test: test, viewing: viewing, background: background, threads: nil)
    }

    /// ``errors(reference:test:viewing:background:)`` on at most `threads` threads (nil: as many
    /// as the system gives). Each row is computed the same way whatever the threads and bands, so
    /// the errors are identical on any number of threads.
    package static func errors(reference: AnyRGBAImage, test: AnyRGBAImage, viewing: FLIPViewing, background: FLIPBackground,
                               threads: Int?) -> [Float] {
        precondition(ImageComparison.sizesMatch(reference, test), "the images must have the same size")
        let width = reference.width, height = reference.height, n = width * height
        guard n > 0 else { return [] }
        let taps = FLIPBandTaps(FLIPKernels(pixelsPerDegree: viewing.pixelsPerDegree))
        let band = FLIPBand(width: width, height: height, taps: taps, reference: FLIPOpponent(reference, background),
                            test: FLIPOpponent(test, background))
        let bands = FLIPBand.bands(height: height, radius: taps.radius)
        return [Float](unsafeUninitializedCapacity: n) { buffer, count in
            let output = UnsafeSendablePointer(buffer.baseAddress!)
            RowBands.run(height, bands: bands, threads: threads) { rows in band.errors(rows, into: output.pointer) }
            count = n
        }
    }

    /// The lanes the per-pixel steps run in.
    typealias Lanes = SIMD16<Float>

    /// The ꟻLIP errors of sixteen pixels from their filtered opponent colours (Y, Cx, Cz) and their
    /// edge and point magnitudes (of `116 Y/Yw − 16`), reference first.
    @inline(__always)
    static func pixelErrors(reference: (Lanes, Lanes, Lanes), test: (Lanes, Lanes, Lanes), edges: (Lanes, Lanes), points: (Lanes, Lanes),
                            cmax: Float) -> Lanes {
        // The detectors' weights sum to zero, so they see 116 Y/Yw: hence the 116.
        let edge = magnitude(edges.0 - edges.1), point = magnitude(points.0 - points.1)
        let feature = squareRoot(edge.replacing(with: point, where: point .> edge) * (1 / (116 * Float(2).squareRoot())))  // qf = 0.5
        let a = huntLab(reference), b = huntLab(test)
        let dl = a.0 - b.0, da = a.1 - b.1, db = a.2 - b.2
        let hyab = magnitude(dl) + squareRoot(da * da + db * db)
        let e = power(hyab, Lanes(repeating: qc))
        let knee = pc * cmax
        let low = e * (pt / knee), high = pt + (e - knee) * ((1 - pt) / (cmax - knee))
        return power(low.replacing(with: high, where: e .>= knee), 1 - feature)
    }

    /// Filtered YCxCz to Hunt-adjusted CIELAB, through linear RGB clamped to 0...1.
    @inline(__always)
    static func huntLab(_ ycxcz: (Lanes, Lanes, Lanes)) -> (Lanes, Lanes, Lanes) {
        let yn = (ycxcz.0 + 16) * (1 / 116)
        let x = (ycxcz.1 * (1 / 500) + yn) * white.x, y = yn * white.y, z = (yn - ycxcz.2 * (1 / 200)) * white.z
        let r = clamp01(fromXYZ.0.x * x + fromXYZ.0.y * y + fromXYZ.0.z * z)
        let g = clamp01(fromXYZ.1.x * x + fromXYZ.1.y * y + fromXYZ.1.z * z)
        let b = clamp01(fromXYZ.2.x * x + fromXYZ.2.y * y + fromXYZ.2.z * z)
        let fx = labF((toXYZ.0.x * r + toXYZ.0.y * g + toXYZ.0.z * b) * (1 / white.x))
        let fy = labF((toXYZ.1.x * r + toXYZ.1.y * g + toXYZ.1.z * b) * (1 / white.y))
        let fz = labF((toXYZ.2.x * r + toXYZ.2.y * g + toXYZ.2.z * b) * (1 / white.z))
        let l = 116 * fy - 16
        return (l, 0.01 * l * 500 * (fx - fy), 0.01 * l * 200 * (fy - fz))
    }

    @inline(__always)
    static func magnitude(_ v: Lanes) -> Lanes { v.replacing(with: -v, where: v .< 0) }

    @inline(__always)
    static func clamp01(_ v: Lanes) -> Lanes {
        let low = v.replacing(with: 0, where: v .< 0)
        return low.replacing(with: 1, where: low .> 1)
    }

    @inline(__always)
    static func labF(_ t: Lanes) -> Lanes {
        let delta: Float = 6.0 / 29.0
        return (t * (1 / (3 * delta * delta)) + 4.0 / 29.0).replacing(with: exp2(log2(t) * (1.0 / 3)), where: t .> delta * delta * delta)
    }

    /// `x^p` for `x ≥ 0` as `2^(p log₂ x)` in lanes, without library calls; relative error
    /// about 1e-6 against `powf`. `0^p = 0` and `0^0 = 1`, as `powf`.
    @inline(__always)
    static func power(_ x: Lanes, _ p: Lanes) -> Lanes {
        let zero = x .<= 0
        return exp2(p * log2(x)).replacing(with: 0, where: zero).replacing(with: 1, where: zero .& (p .== 0))
    }

    /// √x for `x ≥ 0` in lanes: `x · 1/√x`, the reciprocal root from the exponent-halving guess
    /// and three Newton steps (within 2 ulp), where `SIMD16.squareRoot()` compiled to sixteen
    /// scalar roots.
    @inline(__always)
    static func squareRoot(_ x: Lanes) -> Lanes {
        var r = unsafeBitCast(0x5f37_5a86 &- (unsafeBitCast(x, to: SIMD16<Int32>.self) &>> 1), to: Lanes.self)
        let half = x * 0.5
        for _ in 0..<3 { r = r * (1.5 - half * r * r) }
        return (x * r).replacing(with: 0, where: x .<= 0)
    }

    /// log₂ of positive normal floats: the exponent, and the logarithm of the significand (taken
    /// in 0.75...1.5) by the series of atanh. Zero gives about −127, not −∞.
    @inline(__always)
    static func log2(_ x: Lanes) -> Lanes {
        let bits = unsafeBitCast(x, to: SIMD16<Int32>.self)
        // The biased exponent as a float: the integer in the significand of 2²³, minus 2²³ + 127.
        var e = unsafeBitCast(((bits &>> 23) & 0xff) | 0x4b00_0000, to: Lanes.self) - 8_388_735
        var m = unsafeBitCast((bits & 0x007f_ffff) | 0x3f80_0000, to: Lanes.self)
        let big = m .> 1.5
        m = m.replacing(with: m * 0.5, where: big)
        e = e.replacing(with: e + 1, where: big)
        let s = (m - 1) / (m + 1), s2 = s * s
        var series: Lanes = s2 * Float(2.0 / 11) + Float(2.0 / 9)
        series = series * s2 + Float(2.0 / 7)
        series = series * s2 + Float(2.0 / 5)
        series = series * s2 + Float(2.0 / 3)
        series = series * s2 + Float(2)
        return e + s * series * Float(1.442_695_04)  // 1 / ln 2
    }

    /// 2^y, y clamped to −126...127: the integer part built in the exponent bits, times 2^f for
    /// f in −0.5...0.5 by its Taylor series to the seventh power.
    @inline(__always)
    static func exp2(_ y: Lanes) -> Lanes {
        var y = y.replacing(with: -126, where: y .< -126)
        y = y.replacing(with: 127, where: y .> 127)
        // Adding 1.5 · 2²³ rounds to an integer, which the low bits then hold.
        let shifted = y + 12_582_912
        let k = shifted - 12_582_912, f = (y - k) * 0.693_147_18  // ln 2
        var p: Lanes = f * Float(1.0 / 5040) + Float(1.0 / 720)
        for c: Float in [1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1, 1] { p = p * f + c }
        let ki = unsafeBitCast(shifted, to: SIMD16<Int32>.self) &- 0x4b40_0000
        return p * unsafeBitCast((ki &+ 127) &<< 23, to: Lanes.self)
    }

    /// The largest colour error: the HyAB distance of Hunt-adjusted green and blue, to the power qc.
    static let cmax: Float = powf(hyab(huntLab(linear: SIMD3(0, 1, 0)), huntLab(linear: SIMD3(0, 0, 1))), qc)

    /// The colour error after redistribution: `0...pc·cmax` to `0...pt`, the rest to `pt...1`.
    @inline(__always)
    static func redistributed(_ e: Float, cmax: Float) -> Float {
        let knee = pc * cmax
        return e < knee ? pt / knee * e : pt + (e - knee) / (cmax - knee) * (1 - pt)
    }

    /// The HyAB distance: city-block in lightness, Euclidean in chroma.
    @inline(__always)
    static func hyab(_ x: SIMD3<Float>, _ y: SIMD3<Float>) -> Float {
        let d = x - y
        return abs(d.x) + (d.y * d.y + d.z * d.z).squareRoot()
    }

    /// sRGB-encoded `v` (0...1) in linear light.
    @inline(__always)
    static func linear(_ v: Float) -> Float { v <= 0.04045 ? v / 12.92 : powf((v + 0.055) / 1.055, 2.4) }

    /// Linear RGB to Hunt-adjusted CIELAB (reference white: RGB (1, 1, 1)).
    @inline(__always)
    static func huntLab(linear rgb: SIMD3<Float>) -> SIMD3<Float> {
        let xyz = SIMD3((toXYZ.0 * rgb).sum(), (toXYZ.1 * rgb).sum(), (toXYZ.2 * rgb).sum()) / white
        let fx = labF(xyz.x), fy = labF(xyz.y), fz = labF(xyz.z)
        let l = 116 * fy - 16
        return SIMD3(l, 0.01 * l * 500 * (fx - fy), 0.01 * l * 200 * (fy - fz))
    }

    @inline(__always)
    static func labF(_ t: Float) -> Float {
        let delta: Float = 6.0 / 29.0
        return t > delta * delta * delta ? cbrtf(t) : t / (3 * delta * delta) + 4.0 / 29.0
    }
}
