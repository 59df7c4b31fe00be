import KiraImage

/// A ꟻLIP error map for looking at: each pixel's error (0...1) in the magma colour map, as ꟻLIP's
/// own tool shows it, with a legend under it like ``DiffMapLegend``'s: the colour bar from 0 to 1
/// labelled `0`, `0.25`, `0.5`, `0.75`, `1`.
public enum FLIPMap {
    /// The memory of a map of `width` × `height` errors with its legend: as ``DiffMap``'s.
    public static func estimatedBytes(width: Int, height: Int) -> Int { DiffMap.estimatedBytes(width: width, height: height) }

    /// The map of `errors` (row-major, `width × height`), with the legend under it. Throws when
    /// the map with its legend is over ``/KiraImage/ImageLimits/standard``.
    public static func image(_ errors: [Float], width: Int, height: Int) throws(ImageError) -> RGBAImage<UInt8> {
        var map = try RGBAImage<UInt8>(width: width, height: height)
        precondition(errors.count == width * height, "one error a pixel")
        for (p, e) in errors.enumerated() { map.set(p, color(for: e)) }
        return try legended(map)
    }

    /// The colour of error `e`: magma's entry `round(255 e)`.
    package static func color(for e: Float) -> SIMD3<UInt8> {
        let index = Int((Swift.min(1, Swift.max(0, e)) * 255).rounded())
        let rgb = magma[index]
        return SIMD3(UInt8(rgb >> 16), UInt8((rgb >> 8) & 0xff), UInt8(rgb & 0xff))
    }

    static func legended(_ map: RGBAImage<UInt8>) throws(ImageError) -> RGBAImage<UInt8> {
        typealias L = DiffMapLegend
        let width = Swift.max(map.width, L.minimumWidth)
        var image = try RGBAImage<UInt8>(width: width, height: map.height + L.height)
        for p in 0..<(width * image.height) { image.set(p, L.background) }
        for y in 0..<map.height {
            let source = y * map.width * 4
            image.channels.replaceSubrange((y * width * 4)..<(y * width * 4 + map.width * 4),
                                           with: map.channels[source..<(source + map.width * 4)])
        }
        let top = map.height, barWidth = width - 2 * L.margin
        for x in 0..<barWidth {
            let rgb = color(for: Float(x) / Float(barWidth - 1))
            for y in (top + L.barTop)..<(top + L.barTop + L.barHeight) { image.set(y * width + L.margin + x, rgb) }
        }
        for (quarter, label) in ["0", "0.25", "0.5", "0.75", "1"].enumerated() {
            let labelWidth = label.count * (L.glyphWidth + 1) * L.scale - L.scale
            let center = L.margin + Int((Double(barWidth - 1) * Double(quarter) / 4).rounded())
            let left = Swift.min(Swift.max(center - labelWidth / 2, L.margin), width - L.margin - labelWidth)
            L.draw(label, at: (left, top + L.textTop), in: &image)
        }
        return image
    }

    /// matplotlib's magma (CC0), 256 entries as 0xRRGGBB, rounded to 8 bits.
    static let magma: [UInt32] = [
        0x000004,0x010005,0x010106,0x010108,0x020109,0x02020b,0x02020d,0x03030f,0x030312,0x040414,0x050416,0x060518,
        0x06051a,0x07061c,0x08071e,0x090720,0x0a0822,0x0b0924,0x0c0926,0x0d0a29,0x0e0b2b,0x100b2d,0x110c2f,0x120d31,
        0x130d34,0x140e36,0x150e38,0x160f3b,0x180f3d,0x19103f,0x1a1042,0x1c1044,0x1d1147,0x1e1149,0x20114b,0x21114e,
        0x221150,0x241253,0x251255,0x271258,0x29115a,0x2a115c,0x2c115f,0x2d1161,0x2f1163,0x311165,0x331067,0x341069,
        0x36106b,0x38106c,0x390f6e,0x3b0f70,0x3d0f71,0x3f0f72,0x400f74,0x420f75,0x440f76,0x451077,0x471078,0x491078,
        0x4a1079,0x4c117a,0x4e117b,0x4f127b,0x51127c,0x52137c,0x54137d,0x56147d,0x57157e,0x59157e,0x5a167e,0x5c167f,
        0x5d177f,0x5f187f,0x601880,0x621980,0x641a80,0x651a80,0x671b80,0x681c81,0x6a1c81,0x6b1d81,0x6d1d81,0x6e1e81,
        0x701f81,0x721f81,0x732081,0x752181,0x762181,0x782281,0x792282,0x7b2382,0x7c2382,0x7e2482,0x802582,0x812581,
        0x832681,0x842681,0x862781,0x882781,0x892881,0x8b2981,0x8c2981,0x8e2a81,0x902a81,0x912b81,0x932b80,0x942c80,
        0x962c80,0x982d80,0x992d80,0x9b2e7f,0x9c2e7f,0x9e2f7f,0xa02f7f,0xa1307e,0xa3307e,0xa5317e,0xa6317d,0xa8327d,
        0xaa337d,0xab337c,0xad347c,0xae347b,0xb0357b,0xb2357b,0xb3367a,0xb5367a,0xb73779,0xb83779,0xba3878,0xbc3978,
        0xbd3977,0xbf3a77,0xc03a76,0xc23b75,0xc43c75,0xc53c74,0xc73d73,0xc83e73,0xca3e72,0xcc3f71,0xcd4071,0xcf4070,
        0xd0416f,0xd2426f,0xd3436e,0xd5446d,0xd6456c,0xd8456c,0xd9466b,0xdb476a,0xdc4869,0xde4968,0xdf4a68,0xe04c67,
        0xe24d66,0xe34e65,0xe44f64,0xe55064,0xe75263,0xe85362,0xe95462,0xea5661,0xeb5760,0xec5860,0xed5a5f,0xee5b5e,
        0xef5d5e,0xf05f5e,0xf1605d,0xf2625d,0xf2645c,0xf3655c,0xf4675c,0xf4695c,0xf56b5c,0xf66c5c,0xf66e5c,0xf7705c,
        0xf7725c,0xf8745c,0xf8765c,0xf9785d,0xf9795d,0xf97b5d,0xfa7d5e,0xfa7f5e,0xfa815f,0xfb835f,0xfb8560,0xfb8761,
        0xfc8961,0xfc8a62,0xfc8c63,0xfc8e64,0xfc9065,0xfd9266,0xfd9467,0xfd9668,0xfd9869,0xfd9a6a,0xfd9b6b,0xfe9d6c,
        0xfe9f6d,0xfea16e,0xfea36f,0xfea571,0xfea772,0xfea973,0xfeaa74,0xfeac76,0xfeae77,0xfeb078,0xfeb27a,0xfeb47b,
        0xfeb67c,0xfeb77e,0xfeb97f,0xfebb81,0xfebd82,0xfebf84,0xfec185,0xfec287,0xfec488,0xfec68a,0xfec88c,0xfeca8d,
        0xfecc8f,0xfecd90,0xfecf92,0xfed194,0xfed395,0xfed597,0xfed799,0xfed89a,0xfdda9c,0xfddc9e,0xfddea0,0xfde0a1,
        0xfde2a3,0xfde3a5,0xfde5a7,0xfde7a9,0xfde9aa,0xfdebac,0xfcecae,0xfceeb0,0xfcf0b2,0xfcf2b4,0xfcf4b6,0xfcf6b8,
        0xfcf7b9,0xfcf9bb,0xfcfbbd,0xfcfdbf,
    ]
}
