import Kira
import KiraSamples

/// The sample card, drawn in memory at its default size: the commands' defaults need no files,
/// so they work from any directory. `kira textures` writes the same images to disk.
/// Each face's art is also its foil map, so that the etched foil embosses the picture.
enum BuiltInCard {
    static let front = face(art: SampleCard.front(), mask: SampleCard.mask())
    static let back = face(art: SampleCard.back(), mask: SampleCard.backMask())

    private static func face(art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>) -> CardFace {
        CardFace(art: .rgba8(art), mask: .rgba8(mask), foilMap: .rgba8(art))
    }
}

/// A holo mask from an art's alpha: grey = alpha, so the shine covers what is opaque.
enum AlphaMask {
    static func of(_ art: AnyRGBAImage) -> RGBAImage<UInt8> {
        let source = art.rgba8
        var mask = RGBAImage<UInt8>(width: source.width, height: source.height)
        for pixel in 0..<(source.width * source.height) {
            let alpha = source.channels[4 * pixel + 3]
            mask.channels[4 * pixel] = alpha
            mask.channels[4 * pixel + 1] = alpha
            mask.channels[4 * pixel + 2] = alpha
            mask.channels[4 * pixel + 3] = 255
        }
        return mask
    }
}

/// The back a user's card gets when no back is given: the art's outline (its alpha, mirrored left
/// to right as the back of a card is, seen after a flip about y) filled with the art's mean colour,
/// without shine. Plain, so that it is not mistaken for a design.
struct PlainBack {
    let image: RGBAImage<UInt8>
    let hex: String

    /// A mask that is black everywhere: no shine on the plain back.
    static let noShine = RGBAImage<UInt8>(width: 1, height: 1, channels: [0, 0, 0, 255])

    init(for art: AnyRGBAImage) {
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
        var image = RGBAImage<UInt8>(width: source.width, height: source.height)
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
