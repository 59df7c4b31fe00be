#if canImport(Glibc)
import Glibc
#endif
import KiraImage
import Testing
@testable import KiraCompare

@Suite struct MetricTests {
    static func gradient(_ w: Int, _ h: Int, offset: Int = 0) -> RGBAImage<UInt8> {
        var image = try! RGBAImage<UInt8>(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                image[x, y] = SIMD4(UInt8(20 + (x * 3) % 200 + offset), UInt8(30 + y % 150 + offset), UInt8(40 + offset), 255)
            }
        }
        return image
    }

    @Test func identicalImages() {
        let a = AnyRGBAImage.rgba8(Self.gradient(40, 30))
        let c = ImageComparison(a, a)
        #expect(c.psnr == .infinity)
        #expect(abs((c.ssim ?? .nan) - 1) < 1e-9)
        #expect(c.maxError == 0 && c.meanAbsoluteError == 0 && c.shareOverThreshold == 0)
    }

    @Test(arguments: [1, 2, 5, 17])
    func uniformOffsetGivesTheKnownPSNR(k: Int) {
        // Every colour channel off by k/255, alpha equal: MSE = (3/4)(k/255)^2.
        let a = AnyRGBAImage.rgba8(Self.gradient(40, 30)), b = AnyRGBAImage.rgba8(Self.gradient(40, 30, offset: k))
        let c = ImageComparison(a, b)
        let expected = 20 * log10(255 / Double(k)) - 10 * log10(0.75)
        #expect(abs(c.psnr - expected) < 1e-6, "k=\(k): \(c.psnr) vs \(expected)")
        #expect(abs(c.maxError - Double(k) / 255) < 1e-6)
        #expect(abs(c.meanAbsoluteError - 0.75 * Double(k) / 255) < 1e-6)
        #expect(c.shareOverThreshold == (k > 1 ? 1 : 0))
        #expect((c.ssim ?? .nan) < 1)
    }

    @Test(arguments: [1, 3, 10])
    func uniformOffsetOfEveryChannelGivesTwentyLogTenOf255OverK(k: Int) throws {
        // All four channels off by k/255: MSE = (k/255)², so PSNR = 20 log10(255 / k) exactly.
        var a = try RGBAImage<UInt8>(width: 23, height: 17), b = a
        for i in a.channels.indices {
            a.channels[i] = UInt8((i * 37) % 200)
            b.channels[i] = a.channels[i] + UInt8(k)
        }
        let c = ImageComparison(.rgba8(a), .rgba8(b))
        #expect(abs(c.psnr - 20 * log10(255 / Double(k))) < 1e-9, "k=\(k): \(c.psnr)")
        // The same offset at 16 bits (257 k / 65535 = k / 255) gives the same PSNR.
        var a16 = try RGBAImage<UInt16>(width: 23, height: 17), b16 = a16
        for i in a16.channels.indices {
            a16.channels[i] = UInt16(a.channels[i]) * 257
            b16.channels[i] = a16.channels[i] + UInt16(257 * k)
        }
        #expect(abs(ImageComparison(.rgba16(a16), .rgba16(b16)).psnr - 20 * log10(255 / Double(k))) < 1e-9)
    }

    @Test func sixteenBitIsComparedAtSixteenBitPrecision() throws {
        var a = try RGBAImage<UInt16>(width: 8, height: 8), b = try RGBAImage<UInt16>(width: 8, height: 8)
        for i in a.channels.indices { a.channels[i] = 30000; b.channels[i] = i % 4 == 0 ? 30001 : 30000 }
        let c = ImageComparison(.rgba16(a), .rgba16(b))
        #expect(abs(c.maxError - 1.0 / 65535) < 1e-9, "one 16-bit step must not vanish")
        #expect(c.psnr.isFinite && c.psnr > 100)
        #expect(c.shareOverThreshold == 0)
        // 8-bit against its exact 16-bit widening compares equal.
        let eight = Self.gradient(9, 7)
        #expect(ImageComparison(.rgba8(eight), .rgba16(AnyRGBAImage.rgba8(eight).rgba16)).psnr == .infinity)
    }

    @Test func heatMapMarksOnlyTheDifferences() throws {
        let a = Self.gradient(20, 10)
        var b = a
        b[3, 4] = SIMD4(0, 0, 0, 255)
        b[7, 2] = SIMD4(a[7, 2].x &+ 1, a[7, 2].y, a[7, 2].z, 255)
        let map = DiffMap.heatMap(.rgba8(a), .rgba8(b))
        for y in 0..<10 {
            for x in 0..<20 {
                let lit = map[x, y].x > 0 || map[x, y].y > 0 || map[x, y].z > 0
                #expect(lit == ((x == 3 && y == 4) || (x == 7 && y == 2)), "(\(x), \(y))")
            }
        }
        #expect(map[3, 4] != map[7, 2], "a large difference is hotter than a one-step one")
    }

    /// The legend: the map unchanged above it; a bar whose ends are the map's colours for no
    /// difference and for the full scale; labels in the label colour under the bar.
    @Test func heatMapLegend() throws {
        let a = Self.gradient(20, 10)
        var b = a
        b[3, 4] = SIMD4(0, 0, 0, 255)
        let map = DiffMap.heatMap(.rgba8(a), .rgba8(b))
        let legend = try DiffMapLegend.appended(to: map)
        #expect(legend.width == DiffMapLegend.minimumWidth && legend.height == 10 + DiffMapLegend.height)
        for y in 0..<10 {
            for x in 0..<20 { #expect(legend[x, y] == map[x, y]) }
            #expect(legend[20, y] == SIMD4(64, 64, 64, 255), "the widened part is the legend's grey")
        }
        let barRow = 10 + DiffMapLegend.barTop + 1, first = DiffMapLegend.margin, last = legend.width - DiffMapLegend.margin - 1
        #expect(legend[first, barRow] == SIMD4(0, 0, 0, 255))
        #expect(legend[last, barRow] == SIMD4(255, 255, 255, 255))
        let middle = DiffMap.color(for: 8.0 / 255, fullScale: 16.0 / 255)
        let drawn = legend[(first + last) / 2, barRow]
        #expect(abs(Int(drawn.x) - Int(middle.x)) <= 8 && abs(Int(drawn.z) - Int(middle.z)) <= 8, "\(drawn) vs \(middle)")
        var labelPixels = 0
        for y in (10 + DiffMapLegend.textTop)..<legend.height {
            for x in 0..<legend.width where legend[x, y] == SIMD4(235, 235, 235, 255) { labelPixels += 1 }
        }
        // "0", "4", "8", "12", "16+": 12 + 9 + 13 + (8 + 11) + (8 + 12 + 5) font pixels, each 2×2, none overlapping.
        #expect(labelPixels == 78 * 4, "\(labelPixels)")
        // A wide map keeps its width.
        let wide = try DiffMapLegend.appended(to: RGBAImage<UInt8>(width: 300, height: 4))
        #expect(wide.width == 300 && wide.height == 4 + DiffMapLegend.height)
    }
}

/// SSIM's domain and range: none below the window, never outside −1...1.
@Suite struct SSIMRangeTests {
    @Test(arguments: [(1, 1), (10, 40), (40, 10)])
    func smallerThanTheWindowHasNone(w: Int, h: Int) {
        let image = AnyRGBAImage.rgba8(MetricTests.gradient(w, h))
        #expect(ImageComparison(image, image).ssim == nil)
    }

    @Test func nearlyFlatImagesStayWithinOne() throws {
        // Flat images with a few pixels one step off: the float32 local variances of such patches
        // round unevenly, and without care the mean came out at 1.0000038 here.
        var state: UInt32 = 7
        for trial in 0..<400 {
            let (w, h) = (11 + trial % 5, 11 + trial % 3), base = UInt8(trial % 256)
            var a = try RGBAImage<UInt8>(width: w, height: h), b = a
            for i in a.channels.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                a.channels[i] = i % 4 == 3 ? 255 : base
                b.channels[i] = i % 4 == 3 ? 255 : (state >> 28 == 0 ? base ^ 1 : base)
            }
            let ssim = ImageComparison(.rgba8(a), .rgba8(b)).ssim
            #expect(ssim != nil && (-1...1).contains(ssim!), "trial \(trial): \(String(describing: ssim))")
        }
    }

    @Test func leavingAlphaOutCountsThreeChannels() {
        let a = AnyRGBAImage.rgba8(MetricTests.gradient(20, 20)), b = AnyRGBAImage.rgba8(MetricTests.gradient(20, 20, offset: 3))
        #expect(abs(ImageComparison(a, b, comparesAlpha: false).psnr - 20 * log10(255.0 / 3)) < 1e-9)
        #expect(abs(ImageComparison(a, b).psnr - (20 * log10(255.0 / 3) - 10 * log10(0.75))) < 1e-9)
    }
}
