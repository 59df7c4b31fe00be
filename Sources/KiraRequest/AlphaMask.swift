import KiraImage

/// A holo mask from an art's alpha: grey = alpha, so the shine covers what is opaque.
package enum AlphaMask {
    package static func of(_ art: AnyRGBAImage) -> RGBAImage<UInt8> {
        let source = art.rgba8
        var mask = RGBAImage<UInt8>(sizeOf: source)
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
