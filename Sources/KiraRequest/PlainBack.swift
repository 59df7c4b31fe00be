import KiraImage

/// The back a user's card gets when no back is given: the art's outline (its alpha, mirrored left
/// to right as the back of a card is, seen after a flip about y) filled with the art's mean colour,
/// without shine. Plain, so that it is not mistaken for a design.
package struct PlainBack {
    package let image: RGBAImage<UInt8>
    package let hex: String

    /// A mask that is black everywhere: no shine on the plain back.
    package static let noShine = RGBAImage<UInt8>(checkedWidth: 1, height: 1, channels: [0, 0, 0, 255])

    package init(for art: AnyRGBAImage) {
        let source = art.rgba8
        // The mean colour weighted by alpha, so transparent corners do not darken it.
        var sum = SIMD3<Double>(repeating: 0), weight = 0.0
        for pixel in 0..<(source.width * source.height) {
            let a = Double(source.channels[4 * pixel + 3])
            let r = Double(source.channels[4 * pixel]), g = Double(source.channels[4 * pixel + 1])
            let b = Double(source.channels[4 * pixel + 2])
            sum += a * SIMD3<Double>(r, g, b)
            weight += a
        }
        let mean = weight > 0 ? sum / weight : SIMD3(repeating: 128)
        let rgb = (0..<3).map { UInt8(min(255, max(0, mean[$0].rounded()))) }
        var image = RGBAImage<UInt8>(sizeOf: source)
        for y in 0..<source.height {
            for x in 0..<source.width {
                let pixel = y * source.width + x, mirrored = y * source.width + (source.width - 1 - x)
                image.channels[4 * pixel] = rgb[0]
                image.channels[4 * pixel + 1] = rgb[1]
                image.channels[4 * pixel + 2] = rgb[2]
                image.channels[4 * pixel + 3] = source.channels[4 * mirrored + 3]
            }
        }
        self.image = image
        hex = "#" + rgb.map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }
}
