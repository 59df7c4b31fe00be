import KiraImage

/// A heat map with its legend below it: the colour bar of the map's scale, from no difference
/// (black) to `fullScale` and beyond (white), with the differences it stands for in 8-bit steps
/// (`0`, `4`, `8`, `12`, `16+` for the default scale of 16 steps) written under it.
///
/// The legend is drawn by Kira, with a 3×5-pixel digit font at twice its size, on a grey strip
/// (the map's own black means "no difference"). A map narrower than ``minimumWidth`` is widened
/// with the same grey on its right, so the labels always fit.
public enum DiffMapLegend {
    /// The narrowest image that holds the labels.
    public static let minimumWidth = 160
    /// The rows the legend adds under the map.
    public static let height = 30
    static let background = SIMD3<UInt8>(64, 64, 64)
    static let labelColor = SIMD3<UInt8>(235, 235, 235)
    package static let margin = 6, barTop = 5, barHeight = 9, textTop = 18, scale = 2

    /// `map` (a ``DiffMap/heatMap(_:_:fullScale:)`` made with `fullScale`) with the legend under it.
    /// Throws when that is over ``/KiraImage/ImageLimits/standard`` (a map 16384 pixels tall).
    public static func appended(to map: RGBAImage<UInt8>, fullScale: Double = 16.0 / 255) throws(ImageError) -> RGBAImage<UInt8> {
        let width = max(map.width, minimumWidth)
        var image = try RGBAImage<UInt8>(width: width, height: map.height + height)
        for p in 0..<(width * image.height) { image.set(p, background) }
        for y in 0..<map.height {
            let source = y * map.width * 4
            image.channels.replaceSubrange((y * width * 4)..<(y * width * 4 + map.width * 4),
                                           with: map.channels[source..<(source + map.width * 4)])
        }
        // The bar: each column the colour the map gives the difference it stands for.
        let top = map.height, barWidth = width - 2 * margin
        for x in 0..<barWidth {
            let rgb = DiffMap.color(for: fullScale * Double(x) / Double(barWidth - 1), fullScale: fullScale)
            for y in (top + barTop)..<(top + barTop + barHeight) { image.set(y * width + margin + x, rgb) }
        }
        // Labels at 0, ¼, ½, ¾ of the scale and its end, in 8-bit steps.
        let steps = fullScale * 255
        for quarter in 0...4 {
            let value = steps * Double(quarter) / 4
            var label = value == value.rounded() ? String(Int(value)) : String(format1(value))
            if quarter == 4 { label += "+" }
            let labelWidth = label.count * (glyphWidth + 1) * scale - scale
            let center = margin + Int((Double(barWidth - 1) * Double(quarter) / 4).rounded())
            let left = min(max(center - labelWidth / 2, margin), width - margin - labelWidth)
            draw(label, at: (left, top + textTop), in: &image)
        }
        return image
    }

    static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static let glyphWidth = 3
    /// Digits, `+` and `.`: five rows of three pixels each, the high bit on the left.
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        "+": [0, 2, 7, 2, 0], ".": [0, 0, 0, 0, 2],
    ]

    /// Writes `text` with its top left corner at `origin`, each font pixel a `scale`² square.
    static func draw(_ text: String, at origin: (x: Int, y: Int), in image: inout RGBAImage<UInt8>) {
        var x = origin.x
        for character in text {
            let rows = glyphs[character] ?? [0, 0, 0, 0, 0]
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (4 >> column) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let px = x + column * scale + dx, py = origin.y + row * scale + dy
                            if px >= 0, px < image.width, py >= 0, py < image.height { image.set(py * image.width + px, labelColor) }
                        }
                    }
                }
            }
            x += (glyphWidth + 1) * scale
        }
    }
}
