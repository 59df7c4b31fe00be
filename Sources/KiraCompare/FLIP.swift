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
/// Planes are float32, filtered in separable passes with rows in parallel
/// (``PlaneFilter``); the per-pixel steps run on rows in parallel too.
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
                              background: FLIPBackground = .black) -> [Float] {
        precondition(ImageComparison.sizesMatch(reference, test), "the images must have the same size")
        let width = reference.width, height = reference.height, n = width * height
        guard n > 0 else { return [] }
        let kernels = FLIPKernels(pixelsPerDegree: viewing.pixelsPerDegree)
        let r = opponent(reference, background), t = opponent(test, background)
        var result = featureDifference(r, t, width, height, kernels)
        let fr = filtered(r, width, height, kernels), ft = filtered(t, width, height, kernels)
        let cmax = Self.cmax
        fr.withUnsafeBufferPointer { a in
            ft.withUnsafeBufferPointer { b in
                result.withUnsafeMutableBufferPointer { out in
                    let o = UnsafeSendablePointer(out.baseAddress!)
                    let pa = UnsafeSendablePointer(UnsafeMutablePointer(mutating: a.baseAddress!))
                    let pb = UnsafeSendablePointer(UnsafeMutablePointer(mutating: b.baseAddress!))
                    PlaneFilter.rows(height) { rows in
                        for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                            let la = huntLab(pa.pointer[i], pa.pointer[n + i], pa.pointer[2 * n + i])
                            let lb = huntLab(pb.pointer[i], pb.pointer[n + i], pb.pointer[2 * n + i])
                            let colour = redistributed(powf(hyab(la, lb), qc), cmax: cmax)
                            o.pointer[i] = powf(colour, 1 - o.pointer[i])
                        }
                    }
                }
            }
        }
        return result
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

    /// The image as three planes, Y (`116 Y/Yw − 16`), Cx (`500 (X/Xw − Y/Yw)`) and
    /// Cz (`200 (Y/Yw − Z/Zw)`), one after the other.
    static func opponent(_ image: AnyRGBAImage, _ background: FLIPBackground) -> [Float] {
        switch image {
        case .rgba8(let x): opponent(x.channels, fullScale: 255, background)
        case .rgba16(let x): opponent(x.channels, fullScale: 65535, background)
        }
    }

    static func opponent<T: FixedWidthInteger & UnsignedInteger & SendableMetatype>(_ channels: [T], fullScale: Int, _ background: FLIPBackground) -> [Float] {
        let n = channels.count / 4
        // Opaque pixels decode through a table of every stored value; the others blend first.
        let table = (0...fullScale).map { linear(Float(Double($0) / Double(fullScale))) }
        var planes = [Float](repeating: 0, count: 3 * n)
        let scale = 1 / Float(fullScale), bg = background.level
        let height = max(1, n / 1024)
        channels.withUnsafeBufferPointer { c in
            table.withUnsafeBufferPointer { lut in
                planes.withUnsafeMutableBufferPointer { out in
                    let o = UnsafeSendablePointer(out.baseAddress!)
                    let src = UnsafeSendablePointer(UnsafeMutablePointer(mutating: c.baseAddress!))
                    let l = UnsafeSendablePointer(UnsafeMutablePointer(mutating: lut.baseAddress!))
                    PlaneFilter.rows(height) { rows in
                        let start = n * rows.lowerBound / height, end = n * rows.upperBound / height
                        for p in start..<end {
                            let s = src.pointer + 4 * p
                            var rgb: SIMD3<Float>
                            if Int(s[3]) == fullScale {
                                rgb = SIMD3(l.pointer[Int(s[0])], l.pointer[Int(s[1])], l.pointer[Int(s[2])])
                            } else {
                                let a = Float(s[3]) * scale
                                rgb = SIMD3(linear(Float(s[0]) * scale * a + bg * (1 - a)),
                                            linear(Float(s[1]) * scale * a + bg * (1 - a)),
                                            linear(Float(s[2]) * scale * a + bg * (1 - a)))
                            }
                            let xyz = SIMD3((toXYZ.0 * rgb).sum(), (toXYZ.1 * rgb).sum(), (toXYZ.2 * rgb).sum()) / white
                            o.pointer[p] = 116 * xyz.y - 16
                            o.pointer[n + p] = 500 * (xyz.x - xyz.y)
                            o.pointer[2 * n + p] = 200 * (xyz.y - xyz.z)
                        }
                    }
                }
            }
        }
        return planes
    }

    /// The three opponent planes filtered by their contrast sensitivity.
    static func filtered(_ planes: [Float], _ width: Int, _ height: Int, _ kernels: FLIPKernels) -> [Float] {
        let n = width * height
        var out = [Float](repeating: 0, count: 3 * n)
        var scratch = [Float](repeating: 0, count: n)
        planes.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                scratch.withUnsafeMutableBufferPointer { temp in
                    let s = UnsafeMutablePointer(mutating: source.baseAddress!), t = target.baseAddress!
                    let h = UnsafeSendablePointer(temp.baseAddress!)
                    for (channel, terms) in [kernels.achromatic, kernels.redGreen, kernels.blueYellow].enumerated() {
                        for (index, term) in terms.enumerated() {
                            PlaneFilter.horizontal(UnsafeSendablePointer(s + channel * n), h, width: width, height: height, taps: term.taps)
                            PlaneFilter.vertical(h, UnsafeSendablePointer(t + channel * n), width: width, height: height,
                                                 taps: term.taps, scale: term.weight, accumulate: index > 0)
                        }
                    }
                }
            }
        }
        return out
    }

    /// Filtered YCxCz to Hunt-adjusted CIELAB, through linear RGB clamped to 0...1.
    @inline(__always)
    static func huntLab(_ y: Float, _ cx: Float, _ cz: Float) -> SIMD3<Float> {
        let yn = (y + 16) / 116
        let xyz = SIMD3<Float>(cx / 500 + yn, yn, yn - cz / 200) * white
        let rgb = SIMD3((fromXYZ.0 * xyz).sum(), (fromXYZ.1 * xyz).sum(), (fromXYZ.2 * xyz).sum())
        return huntLab(linear: rgb.clamped(lowerBound: .zero, upperBound: .one))
    }

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

    /// The feature error `(max(Δedge, Δpoint) / √2)^qf` of the achromatic channels, per pixel.
    static func featureDifference(_ r: [Float], _ t: [Float], _ width: Int, _ height: Int, _ kernels: FLIPKernels) -> [Float] {
        let n = width * height
        let (edgeR, pointR) = features(r, width, height, kernels), (edgeT, pointT) = features(t, width, height, kernels)
        var out = [Float](repeating: 0, count: n)
        let root2 = Float(2).squareRoot()
        for i in 0..<n {
            out[i] = powf(max(abs(edgeR[i] - edgeT[i]), abs(pointR[i] - pointT[i])) / root2, qf)
        }
        return out
    }

    /// The edge and point magnitudes of the achromatic channel `Y / Yw = (Y' + 16) / 116`.
    static func features(_ planes: [Float], _ width: Int, _ height: Int, _ kernels: FLIPKernels) -> ([Float], [Float]) {
        let n = width * height
        var y = [Float](repeating: 0, count: n)
        for i in 0..<n { y[i] = (planes[i] + 16) / 116 }
        func pass(_ source: [Float], _ taps: [Float], horizontal: Bool) -> [Float] {
            var out = [Float](repeating: 0, count: n)
            source.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    let sp = UnsafeSendablePointer(UnsafeMutablePointer(mutating: s.baseAddress!)), op = UnsafeSendablePointer(o.baseAddress!)
                    if horizontal {
                        PlaneFilter.horizontal(sp, op, width: width, height: height, taps: taps)
                    } else {
                        PlaneFilter.vertical(sp, op, width: width, height: height, taps: taps)
                    }
                }
            }
            return out
        }
        let hg = pass(y, kernels.gaussian, horizontal: true)
        var edge = pass(pass(y, kernels.edge, horizontal: true), kernels.gaussian, horizontal: false)
        let edgeY = pass(hg, kernels.edge, horizontal: false)
        for i in 0..<n { edge[i] = (edge[i] * edge[i] + edgeY[i] * edgeY[i]).squareRoot() }
        var point = pass(pass(y, kernels.point, horizontal: true), kernels.gaussian, horizontal: false)
        let pointY = pass(hg, kernels.point, horizontal: false)
        for i in 0..<n { point[i] = (point[i] * point[i] + pointY[i] * pointY[i]).squareRoot() }
        return (edge, point)
    }
}
