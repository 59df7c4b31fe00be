import Foundation
import KiraImage
import Testing
@testable import KiraCompare

/// LDR-ꟻLIP against NVIDIA's flip-evaluator, and its pieces.
///
/// The reference values were computed with flip-evaluator 1.7 (`pip install flip-evaluator==1.7`):
/// `flip_evaluator.evaluate(a, t, "LDR", applyMagma=False)` on the pair below as float32 RGB
/// (`v / 255`), with `parameters={"ppd": 30.0}` for the 30 ppd means. `flip_reference.py`
/// checks many more pairs, from Kira's renders and photographs.
@Suite struct FLIPTests {
    static func pair(_ w: Int, _ h: Int) -> (AnyRGBAImage, AnyRGBAImage) {
        var a = try! RGBAImage<UInt8>(width: w, height: h), b = try! RGBAImage<UInt8>(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let r = (x * 7 + y * 13) % 256, g = (x * x + 3 * y) % 256, bl = (5 * x * y + 17) % 256
                let r2 = min(255, max(0, r + (x * 31 + y * 17) % 21 - 10)), g2 = (g + 40 * ((x / 8) % 2)) % 256
                let b2 = x < w / 2 ? bl : 255 - bl
                a[x, y] = SIMD4(UInt8(r), UInt8(g), UInt8(bl), 255)
                b[x, y] = SIMD4(UInt8(r2), UInt8(g2), UInt8(b2), 255)
            }
        }
        return (.rgba8(a), .rgba8(b))
    }

    @Test(arguments: [
        (37, 29, 0.375586, 0.464195, [0.017388, 0.293753, 0.161963]),
        (64, 48, 0.396356, 0.485723, [0.017388, 0.237817, 0.713852]),
    ])
    func matchesFLIPEvaluator(w: Int, h: Int, mean: Double, mean30: Double, corners: [Double]) {
        let (a, b) = Self.pair(w, h)
        let flip = FLIPComparison(reference: a, test: b)
        #expect(abs(flip.statistics.mean - mean) < 0.001, "\(w)×\(h): \(flip.statistics.mean), flip-evaluator \(mean)")
        // Top left, centre and bottom right pixels.
        let observed = [flip.errors[0], flip.errors[(h / 2) * w + w / 2], flip.errors[w * h - 1]]
        for (o, e) in zip(observed, corners) { #expect(abs(Double(o) - e) < 0.01, "\(w)×\(h): \(observed), flip-evaluator \(corners)") }
        let at30 = FLIPComparison(reference: a, test: b, viewing: FLIPViewing(pixelsPerDegree: 30))
        #expect(abs(at30.statistics.mean - mean30) < 0.001, "\(w)×\(h) at 30 ppd: \(at30.statistics.mean), flip-evaluator \(mean30)")
    }

    @Test(arguments: [(37, 29, 67.02), (64, 48, 67.02), (50, 40, 30.0)])
    func lanesMatchTheScalarReference(w: Int, h: Int, ppd: Double) {
        var (a, b) = Self.pair(w, h)
        // Some alpha, so that compositing is checked too.
        var translucent = a.rgba8
        for x in 0..<w { translucent[x, h / 3] = SIMD4(200, 10, 90, UInt8(x * 255 / w)) }
        a = .rgba8(translucent)
        let viewing = FLIPViewing(pixelsPerDegree: ppd)
        let lanes = FLIP.errors(reference: a, test: b, viewing: viewing), scalar = FLIPReference.errors(reference: a, test: b, viewing: viewing)
        let worst = zip(lanes, scalar).map { abs($0 - $1) }.max()!
        #expect(worst < Self.laneTolerance, "\(w)×\(h) at \(ppd) ppd: largest difference \(worst)")
    }

    /// How far the lanes may be from the scalar reference (at most 7e-6 on these pairs). Not
    /// exact: the lanes sum separable passes with fused multiply-adds where the reference sums
    /// the 2D kernel, and take powers as 2^(p log₂ x) to about 1e-6 relative.
    static let laneTolerance: Float = 2e-5

    @Test func sameErrorsOnAnyNumberOfThreads() {
        // Two bands of rows at 67 ppd (FLIP.errors: at least 168 rows a band).
        let (a, b) = Self.pair(45, 360)
        let all = FLIP.errors(reference: a, test: b)
        for threads in [1, 2, 3, 8] {
            #expect(FLIP.errors(reference: a, test: b, viewing: .standard, background: .standard, threads: threads) == all, "\(threads) threads")
        }
    }

    @Test func identicalImagesHaveNoError() {
        let (a, _) = Self.pair(40, 30)
        let flip = FLIPComparison(reference: a, test: a)
        #expect(flip.errors.allSatisfy { $0 == 0 } && flip.statistics.max == 0)
    }

    @Test func sixteenBitWideningChangesNothing() {
        let (a, b) = Self.pair(37, 29)
        let eight = FLIP.errors(reference: a, test: b), sixteen = FLIP.errors(reference: .rgba16(a.rgba16), test: .rgba16(b.rgba16))
        #expect(zip(eight, sixteen).allSatisfy { abs($0 - $1) < 1e-5 })
    }

    @Test func alphaIsCompositedOverTheBackground() throws {
        // Transparent pixels of any colour are the background; half-transparent white over black is grey.
        var clear = try RGBAImage<UInt8>(width: 20, height: 20), black = try RGBAImage<UInt8>(width: 20, height: 20)
        for p in 0..<400 {
            clear[p % 20, p / 20] = SIMD4(UInt8(p % 256), 200, 30, 0)
            black[p % 20, p / 20] = SIMD4(0, 0, 0, 255)
        }
        #expect(FLIP.errors(reference: .rgba8(clear), test: .rgba8(black)).allSatisfy { $0 == 0 })
        #expect(FLIP.errors(reference: .rgba8(clear), test: .rgba8(black), background: .white).allSatisfy { $0 > 0.5 })
    }

    @Test func pixelsPerDegree() {
        // The paper's monitor: 0.7 m wide, 3840 pixels, seen from 0.7 m.
        #expect(abs(FLIPViewing.standard.pixelsPerDegree - 67.0206) < 1e-4)
        #expect(abs(FLIPViewing(monitorDistance: 1, monitorWidth: 0.5, resolution: 1920).pixelsPerDegree - 1920 / 0.5 * .pi / 180) < 1e-9)
        // Parts not given are the standard monitor's.
        #expect(FLIPViewing(monitorDistance: nil, monitorWidth: nil, resolution: nil) == .standard)
        #expect(abs(FLIPViewing(monitorDistance: 1.4, monitorWidth: nil, resolution: nil).pixelsPerDegree - 2 * FLIPViewing.standard.pixelsPerDegree) < 1e-9)
    }

    @Test func kernelsAreNormalised() {
        let k = FLIPKernels(pixelsPerDegree: 67.02)
        #expect(FLIPKernels.colorRadius(pixelsPerDegree: 67.02) == 10)
        for terms in [k.achromatic, k.redGreen, k.blueYellow] {
            // The 2D kernel Σ wᵢ êᵢ(x) êᵢ(y) sums to Σ wᵢ: 1.
            #expect(abs(terms.map(\.weight).reduce(0, +) - 1) < 1e-6)
            for term in terms {
                #expect(term.taps.count == 21 && abs(term.taps.reduce(0, +) - 1) < 1e-6)
                #expect(zip(term.taps, term.taps.reversed()).allSatisfy { $0 == $1 }, "symmetric")
            }
        }
        #expect(k.blueYellow.count == 2 && k.achromatic.count == 1 && k.redGreen.count == 1)
        #expect(k.gaussian.count == 19 && abs(k.gaussian.reduce(0, +) - 1) < 1e-6)  // σ = 2.75 px, radius ⌈3σ⌉ = 9
        for detector in [k.edge, k.point] {
            #expect(abs(detector.filter { $0 > 0 }.reduce(0, +) - 1) < 1e-6)
            #expect(abs(detector.filter { $0 < 0 }.reduce(0, +) + 1) < 1e-6)
        }
    }

    @Test func hyab() {
        // |ΔL| + √(Δa² + Δb²): 3 + 5.
        #expect(FLIP.hyab(SIMD3(50, 10, 20), SIMD3(53, 13, 24)) == 8)
        // The largest colour error, Hunt-adjusted green against blue, to the power 0.7.
        #expect(abs(FLIP.cmax - 41.275) < 0.01)
    }

    @Test func lanePowersMatchTheLibrary() {
        for x: Float in [1e-6, 0.001, 0.02, 0.3, 0.5, 0.999, 1, 7.5, 180] {
            for p: Float in [0, 0.3, 1.0 / 3, 0.7, 1] {
                let lanes = FLIP.power(FLIP.Lanes(repeating: x), FLIP.Lanes(repeating: p))[0]
                #expect(abs(lanes - Float(pow(Double(x), Double(p)))) <= 2e-6 * max(1, lanes), "\(x)^\(p)")
            }
        }
        for x: Float in [0, 1e-30, 1e-6, 0.02, 0.5, 1, 2, 7.5, 180, 1e6, 3e30] {
            let root = FLIP.squareRoot(FLIP.Lanes(repeating: x))[0]
            #expect(abs(root - x.squareRoot()) <= 2 * x.squareRoot().ulp, "√\(x): \(root)")
        }
        #expect(FLIP.power(FLIP.Lanes(repeating: 0), FLIP.Lanes(repeating: 0.7))[0] == 0)
        #expect(FLIP.power(FLIP.Lanes(repeating: 0), FLIP.Lanes(repeating: 0))[0] == 1)
    }

    @Test func weightedPercentiles() {
        // Errors 1, 2, 3, 4 (sum 10): 1 + 2 < 5 ≤ 1 + 2 + 3, so the weighted median is 3.
        let s = FLIPStatistics([4, 1, 3, 2])
        #expect(s.mean == 2.5 && s.min == 1 && s.max == 4)
        #expect(s.weightedMedian == 3 && s.weightedFirstQuartile == 2 && s.weightedThirdQuartile == 4)
        // Many values in one histogram bucket, and none at all.
        let spread = (0..<1000).map { 0.5 + Float($0) * 1e-6 }
        #expect(FLIPStatistics(spread).weightedMedian == Double(spread[499]) || FLIPStatistics(spread).weightedMedian == Double(spread[500]))
        #expect(FLIPStatistics([]).mean == 0 && FLIPStatistics([0, 0]).weightedMedian == 0)
    }

    @Test func mapAndLegend() throws {
        let map = try FLIPMap.image([Float](repeating: 0, count: 12) + [Float](repeating: 1, count: 12), width: 4, height: 6)
        #expect(map.width == DiffMapLegend.minimumWidth && map.height == 6 + DiffMapLegend.height)
        #expect(map[0, 0] == SIMD4(0, 0, 4, 255) && map[0, 5] == SIMD4(252, 253, 191, 255), "magma's ends")
    }
}
