import KiraImage
import Testing

/// Cutting a rectangle out of an image: into an image of its own, or straight into memory the
/// caller owns.
@Suite struct ImageRegionTests {
    /// A 7×5 image whose every channel differs from every other.
    private static let image = try! RGBAImage<UInt16>(width: 7, height: 5, channels: (0..<(7 * 5 * 4)).map { UInt16($0 * 3 + 1) })

    @Test(arguments: [ImageRegion(x: 2, y: 1, width: 3, height: 2), ImageRegion(x: 0, y: 0, width: 7, height: 1),
                      ImageRegion(x: 6, y: 0, width: 1, height: 5), ImageRegion(x: 0, y: 4, width: 7, height: 1),
                      ImageRegion(x: 0, y: 0, width: 7, height: 5), ImageRegion(x: 3, y: 3, width: 0, height: 0)])
    func aRegionHoldsTheImagesPixelsThere(_ region: ImageRegion) {
        let image = Self.image
        let cropped = image.cropped(to: region)
        #expect(cropped.width == region.width && cropped.height == region.height)
        var expected: [UInt16] = []
        for y in 0..<region.height {
            for x in 0..<region.width {
                let pixel = image.pixel(x: region.x + x, y: region.y + y)
                expected += [pixel.x, pixel.y, pixel.z, pixel.w]
            }
        }
        #expect(cropped.channels == expected)
        // Straight into a larger buffer: the region's channels at its start, the rest untouched.
        var destination = [UInt16](repeating: 9999, count: expected.count + 5)
        destination.withUnsafeMutableBufferPointer { image.copyChannels(of: region, into: $0) }
        #expect(Array(destination.prefix(expected.count)) == expected)
        #expect(destination.suffix(5).allSatisfy { $0 == 9999 })
    }
}
