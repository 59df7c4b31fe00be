/// Parsing of the values `kira` takes on its command line, as pure functions.
///
/// Kept apart from the command-line types so that the fuzzer (Tests/Fuzz) can drive them
/// directly. Each returns nil for anything it does not accept: the command turns that into a
/// one-line error.
public enum ArgumentValues {
    /// Three comma-separated numbers, e.g. `-0.3,0.2,0.9` (spaces around the numbers allowed).
    /// Non-finite components are returned as parsed; callers check the vector as a whole.
    public static func vector3(_ text: String) -> SIMD3<Float>? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        // `Float(_:)` reads through C's strtod, which stops at a NUL: "1\0x" would be 1.
        guard parts.count == 3, !text.utf8.contains(0) else { return nil }
        var values: [Float] = []
        for part in parts {
            guard let value = Float(String(part.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())) else {
                return nil
            }
            values.append(value)
        }
        return SIMD3(values[0], values[1], values[2])
    }

    /// `WxH` with both sides in `1...maxSide`, e.g. `630x880`.
    public static func size(_ text: String, maxSide: Int = 16384) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...maxSide).contains(w), (1...maxSide).contains(h) else { return nil }
        return (w, h)
    }

    /// `#RRGGBB` or `RRGGBB` as channels in 0...1.
    public static func hexColor(_ text: String) -> SIMD3<Float>? {
        let hex = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let rgb = UInt32(hex, radix: 16) else { return nil }
        return SIMD3(Float(rgb >> 16 & 0xFF), Float(rgb >> 8 & 0xFF), Float(rgb & 0xFF)) / 255
    }

    /// A number of bytes: digits (a fraction allowed) and an optional binary unit `K`, `M`, `G`
    /// or `T` (KiB … TiB; `KB`, `KiB` and lower case read the same), e.g. `2G`, `1536M`,
    /// `0.5g`. Nil for anything else, or for more than 2^62 bytes.
    public static func byteCount(_ text: String) -> Int? {
        var number = Substring(text.lowercased())
        for suffix in ["ib", "b"] where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            break
        }
        var scale = 1.0
        if let unit = number.last, let power = ["k": 10.0, "m": 20.0, "g": 30.0, "t": 40.0][unit] {
            scale = pow2(power)
            number = number.dropLast()
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Double(number), value.isFinite else { return nil }
        let bytes = (value * scale).rounded(.down)
        guard bytes <= pow2(62) else { return nil }
        return Int(bytes)
    }

    private static func pow2(_ power: Double) -> Double {
        var x = 1.0
        for _ in 0..<Int(power) { x *= 2 }
        return x
    }
}
