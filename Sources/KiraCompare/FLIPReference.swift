import KiraImage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// LDR-ꟻLIP one pixel at a time in plain loops, as the paper states it: the readable form of what
/// ``FLIP`` computes in lanes, separable passes and threads, and what the tests hold it to.
///
/// Every filter here is the whole two-dimensional kernel (the CSF's `Σ wᵢ êᵢ(x) êᵢ(y)`, the
/// detectors' derivative along one axis times the Gaussian along the other) summed over its
/// square window with clamped coordinates, and powers are the C library's.
package enum FLIPReference {
    /// The per-pixel ꟻLIP errors of `test` against `reference` (row-major, 0...1), both composited
    /// over `background` first.
    package static func errors(reference: AnyRGBAImage, test: AnyRGBAImage, viewing: FLIPViewing = .standard,
                               background: FLIPBackground = .standard) -> [Float] {
        precondition(ImageComparison.sizesMatch(reference, test), "the images must have the same size")
        let width = reference.width, height = reference.height
        let kernels = Kernels2D(FLIPKernels(pixelsPerDegree: viewing.pixelsPerDegree))
        let a = Opponent(reference, background), b = Opponent(test, background)
        var errors = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // Colour: contrast-sensitivity filtered YCxCz, to Hunt-adjusted CIELAB, HyAB distance.
                let labA = huntLab(filteredYCxCz: a.csf(x, y, kernels)), labB = huntLab(filteredYCxCz: b.csf(x, y, kernels))
                let colour = FLIP.redistributed(powf(FLIP.hyab(labA, labB), FLIP.qc), cmax: FLIP.cmax)
                // Features: edges and points of Y / Yw; the larger difference of their magnitudes.
                let (edgeA, pointA) = a.features(x, y, kernels), (edgeB, pointB) = b.features(x, y, kernels)
                let feature = powf(max(abs(edgeA - edgeB), abs(pointA - pointB)) / Float(2).squareRoot(), FLIP.qf)
                errors[y * width + x] = powf(colour, 1 - feature)
            }
        }
        return errors
    }

    /// Filtered YCxCz to Hunt-adjusted CIELAB, through linear RGB clamped to 0...1.
    static func huntLab(filteredYCxCz c: SIMD3<Float>) -> SIMD3<Float> {
        let yn = (c.x + 16) / 116
        let xyz = SIMD3(c.y / 500 + yn, yn, yn - c.z / 200) * FLIP.white
        let rgb = SIMD3((FLIP.fromXYZ.0 * xyz).sum(), (FLIP.fromXYZ.1 * xyz).sum(), (FLIP.fromXYZ.2 * xyz).sum())
        return FLIP.huntLab(linear: rgb.clamped(lowerBound: .zero, upperBound: .one))
    }

    /// An image in YCxCz (`116 Y/Yw − 16`, `500 (X/Xw − Y/Yw)`, `200 (Y/Yw − Z/Zw)`), read with
    /// clamp-to-edge coordinates.
    struct Opponent {
        let width: Int, height: Int
        let pixels: [SIMD3<Float>]

        init(_ image: AnyRGBAImage, _ background: FLIPBackground) {
            width = image.width
            height = image.height
            let bg = background.level
            pixels = (0..<(image.width * image.height)).map { p in
                // The stored sRGB values blended over the background, then decoded.
                let c: SIMD4<Float> = switch image {
                case .rgba8(let i): SIMD4<Float>(i[p % i.width, p / i.width]) / 255
                case .rgba16(let i): SIMD4<Float>(i[p % i.width, p / i.width]) / 65535
                }
                let srgb = SIMD3(c.x, c.y, c.z) * c.w + SIMD3(repeating: bg * (1 - c.w))
                let rgb = SIMD3(FLIP.linear(srgb.x), FLIP.linear(srgb.y), FLIP.linear(srgb.z))
                let xyz = SIMD3((FLIP.toXYZ.0 * rgb).sum(), (FLIP.toXYZ.1 * rgb).sum(), (FLIP.toXYZ.2 * rgb).sum()) / FLIP.white
                return SIMD3(116 * xyz.y - 16, 500 * (xyz.x - xyz.y), 200 * (xyz.y - xyz.z))
            }
        }

        subscript(x: Int, y: Int) -> SIMD3<Float> {
            pixels[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
        }

        /// Each channel filtered by its contrast sensitivity at pixel (x, y).
        func csf(_ x: Int, _ y: Int, _ kernels: Kernels2D) -> SIMD3<Float> {
            let r = kernels.radius
            var sum = SIMD3<Float>.zero
            for dy in -r...r {
                for dx in -r...r { sum += kernels.csf[dx, dy] * self[x + dx, y + dy] }
            }
            return sum
        }

        /// The gradient magnitudes of the edge and point detectors of `Y / Yw` at pixel (x, y).
        func features(_ x: Int, _ y: Int, _ kernels: Kernels2D) -> (edge: Float, point: Float) {
            let r = kernels.radius
            var edge = SIMD2<Float>.zero, point = SIMD2<Float>.zero
            for dy in -r...r {
                for dx in -r...r {
                    let luminance = (self[x + dx, y + dy].x + 16) / 116
                    edge += kernels.edge[dx, dy] * luminance
                    point += kernels.point[dx, dy] * luminance
                }
            }
            return ((edge * edge).sum().squareRoot(), (point * point).sum().squareRoot())
        }
    }

    /// The two-dimensional kernels, from the separable factors of ``FLIPKernels``, all of one
    /// radius (the smaller ones padded with zeros).
    struct Kernels2D {
        /// A square of `2 radius + 1` weights a side, indexed by offsets from the centre.
        struct Square<Weight> {
            let radius: Int
            let weights: [Weight]
            init(radius: Int, _ weight: (Int, Int) -> Weight) {
                self.radius = radius
                weights = (-radius...radius).flatMap { dy in (-radius...radius).map { dx in weight(dx, dy) } }
            }
            subscript(dx: Int, dy: Int) -> Weight { weights[(dy + radius) * (2 * radius + 1) + dx + radius] }
        }

        let radius: Int
        /// Y's, Cx's and Cz's contrast sensitivity: `Σ wᵢ êᵢ(x) êᵢ(y)` per channel.
        let csf: Square<SIMD3<Float>>
        /// The edge and point detectors along x and along y: the derivative along one axis, the
        /// Gaussian along the other.
        let edge: Square<SIMD2<Float>>, point: Square<SIMD2<Float>>

        init(_ k: FLIPKernels) {
            let channels = [k.achromatic, k.redGreen, k.blueYellow]
            radius = max(channels[0][0].taps.count, k.gaussian.count) / 2
            let r = radius
            func tap(_ taps: [Float], _ i: Int) -> Float { abs(i) <= taps.count / 2 ? taps[i + taps.count / 2] : 0 }
            csf = Square(radius: r) { dx, dy in
                SIMD3(channels.map { terms in terms.map { $0.weight * tap($0.taps, dx) * tap($0.taps, dy) }.reduce(0, +) })
            }
            edge = Square(radius: r) { dx, dy in SIMD2(tap(k.edge, dx) * tap(k.gaussian, dy), tap(k.gaussian, dx) * tap(k.edge, dy)) }
            point = Square(radius: r) { dx, dy in SIMD2(tap(k.point, dx) * tap(k.gaussian, dy), tap(k.gaussian, dx) * tap(k.point, dy)) }
        }
    }
}
