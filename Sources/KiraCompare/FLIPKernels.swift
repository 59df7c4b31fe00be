#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-dimensional filters of LDR-ꟻLIP at a viewing distance, as separable factors of the
/// paper's two-dimensional kernels.
///
/// The contrast sensitivity of each YCxCz channel is a sum of Gaussians in visual degrees,
/// `g(x, y) = Σ aᵢ √(π/bᵢ) exp(−π² (x² + y²) / bᵢ)`, sampled at `1 / ppd` degrees over a radius
/// set by the widest Gaussian of any channel and normalised to sum 1. Each term factors into
/// `eᵢ(x) eᵢ(y)`, so the normalised kernel is `Σ wᵢ êᵢ(x) êᵢ(y)` with `êᵢ = eᵢ / Σeᵢ` and
/// `wᵢ = aᵢ √(π/bᵢ) (Σeᵢ)² / Σⱼ aⱼ √(π/bⱼ) (Σeⱼ)²`: exactly the 2D kernel, in passes of `2r + 1`
/// taps instead of `(2r + 1)²`.
///
/// The feature detectors are the first and second derivatives of a Gaussian of standard deviation
/// `0.5 · 0.082° · ppd` pixels (radius `⌈3σ⌉`); their positive and negative weights are each
/// normalised to sum ±1, and the Gaussian across the derivative to 1, which normalises the 2D
/// kernel the same way (the sign of a weight depends on the derivative's axis alone).
public struct FLIPKernels: Sendable, Equatable {
    /// One separable term: `weight · taps(x) · taps(y)`.
    public struct Term: Sendable, Equatable {
        public let weight: Float
        public let taps: [Float]
    }

    /// Achromatic (Y), red–green (Cx) and blue–yellow (Cz) contrast sensitivity, each a sum of terms.
    public let achromatic: [Term], redGreen: [Term], blueYellow: [Term]
    /// The Gaussian, its first derivative and its second derivative for the feature detectors.
    public let gaussian: [Float], edge: [Float], point: [Float]

    /// The paper's CSF constants (a₁, b₁, a₂, b₂) per channel; b in degrees².
    static let achromaticConstants: (Double, Double, Double, Double) = (1, 0.0047, 0, 1e-5)
    static let redGreenConstants: (Double, Double, Double, Double) = (1, 0.0053, 0, 1e-5)
    static let blueYellowConstants: (Double, Double, Double, Double) = (34.1, 0.04, 13.5, 0.025)
    /// The peak-to-trough width of the human edge detector, in degrees.
    static let featureWidth = 0.082

    /// The CSF radius in pixels: three standard deviations of the widest Gaussian, `⌈3 √(b_max / 2π²) · ppd⌉`.
    public static func colorRadius(pixelsPerDegree ppd: Double) -> Int {
        let widest = [achromaticConstants, redGreenConstants, blueYellowConstants].map { max($0.1, $0.3) }.max()!
        return Int((3 * (widest / (2 * Double.pi * Double.pi)).squareRoot() * ppd).rounded(.up))
    }

    /// The feature detectors' standard deviation in pixels.
    public static func featureSigma(pixelsPerDegree ppd: Double) -> Double { 0.5 * featureWidth * ppd }

    public init(pixelsPerDegree ppd: Double) {
        let r = Self.colorRadius(pixelsPerDegree: ppd)
        achromatic = Self.csf(Self.achromaticConstants, radius: r, ppd: ppd)
        redGreen = Self.csf(Self.redGreenConstants, radius: r, ppd: ppd)
        blueYellow = Self.csf(Self.blueYellowConstants, radius: r, ppd: ppd)
        let sigma = Self.featureSigma(pixelsPerDegree: ppd)
        let fr = Int((3 * sigma).rounded(.up))
        let xs = (-fr...fr).map(Double.init)
        let g = xs.map { exp(-$0 * $0 / (2 * sigma * sigma)) }
        let gSum = g.reduce(0, +)
        gaussian = g.map { Float($0 / gSum) }
        edge = Self.signNormalised(zip(xs, g).map { -$0 * $1 })
        point = Self.signNormalised(zip(xs, g).map { ($0 * $0 / (sigma * sigma) - 1) * $1 })
    }

    /// The terms of one channel; a term with `a = 0` is left out.
    static func csf(_ c: (Double, Double, Double, Double), radius r: Int, ppd: Double) -> [Term] {
        let raw = [(c.0, c.1), (c.2, c.3)].filter { $0.0 != 0 }.map { a, b -> (Double, [Double]) in
            let taps = (-r...r).map { i -> Double in
                let x = Double(i) / ppd
                return exp(-Double.pi * Double.pi * x * x / b)
            }
            return (a * (Double.pi / b).squareRoot(), taps)
        }
        let total = raw.map { c, taps in c * pow(taps.reduce(0, +), 2) }.reduce(0, +)
        return raw.map { c, taps in
            let sum = taps.reduce(0, +)
            return Term(weight: Float(c * sum * sum / total), taps: taps.map { Float($0 / sum) })
        }
    }

    /// `weights` with the positive ones scaled to sum 1 and the negative ones to sum −1.
    static func signNormalised(_ weights: [Double]) -> [Float] {
        let positive = weights.filter { $0 > 0 }.reduce(0, +), negative = -weights.filter { $0 < 0 }.reduce(0, +)
        return weights.map { Float($0 > 0 ? $0 / positive : $0 < 0 ? $0 / negative : 0) }
    }
}
