/// The shader's fast path: the original shader's functions on ``Lanes`` of sixteen pixels.
///
/// Each function performs the same float32 operations, in the same order, as its scalar twin in
/// ``SeedShader``, so the two agree bit for bit (the tests check it). The value noise is the one
/// exception in form, not in result: see ``NoiseTables``.
public enum KiraLanes {
    /// `hsv2rgb` for lanes whose saturation and value are the same for all sixteen pixels.
    @inlinable @inline(__always)
    public static func hsv2rgb(_ h: Lanes, _ s: Lanes, _ v: Lanes) -> RGBLanes {
        @inline(__always) func channel(_ k: Float) -> Lanes {
            let p = Lanes.abs(Lanes.fract(h + k) * 6 - 3)
            return v * Lanes.mix(Lanes(repeating: 1), Lanes.clamp(p - 1, .zero, Lanes(repeating: 1)), s)
        }
        return RGBLanes(channel(1), channel(2.0 / 3.0), channel(1.0 / 3.0))
    }

    @inlinable @inline(__always)
    public static func rgb2hsv(_ c: RGBLanes) -> RGBLanes {
        let s1 = Lanes.step(c.b, c.g)
        let px = Lanes.mix(c.b, c.g, s1)
        let py = Lanes.mix(c.g, c.b, s1)
        let pz = Lanes.mix(Lanes(repeating: -1), .zero, s1)
        let pw = Lanes.mix(Lanes(repeating: 2.0 / 3.0), Lanes(repeating: -1.0 / 3.0), s1)

        let s2 = Lanes.step(px, c.r)
        let qx = Lanes.mix(px, c.r, s2)
        let qy = Lanes.mix(py, py, s2)
        let qz = Lanes.mix(pw, pz, s2)
        let qw = Lanes.mix(c.r, px, s2)

        let d = qx - Lanes.min(qw, qy)
        let e: Float = 1.0e-10
        return RGBLanes(Lanes.abs(qz + (qw - qy) / (6 * d + e)), d / (qx + e), qx)
    }

    /// The tilt-independent half of `generateKiraRGB`: the noise colour and the colour its hue
    /// and saturation give at value 1 (`hsv2rgb` of `rgb2hsv(colorNoiseRGB)` before the multiply
    /// by the value). Both depend on the pixel only, never on the face normal.
    @inlinable @inline(__always)
    public static func noiseColors(valueNoise: Lanes) -> NoiseColors {
        let one = Lanes(repeating: 1)
        let colorNoiseRGB = hsv2rgb(valueNoise, one, one)
        let hsv = rgb2hsv(colorNoiseRGB)
        // hsv2rgb(h, s, v) is `v * mix(1, clamp(p - 1, 0, 1), s)`: keep the `mix` for later.
        return NoiseColors(colorNoiseRGB: colorNoiseRGB, fullValueRGB: hsv2rgb(hsv.r, hsv.g, one))
    }

    /// The tilt-dependent half of `generateKiraRGB`: the value from the distance to the view
    /// angle's colour, times the colour at value 1. With ``noiseColors(valueNoise:)`` this is
    /// `generateKiraRGB` operation for operation (multiplying by a value of 1 is exact).
    @inlinable @inline(__always)
    public static func generateKiraRGB(_ colors: NoiseColors, angleColorRGB a: SIMD3<Float>) -> RGBLanes {
        let dr = colors.colorNoiseRGB.r - a.x
        let dg = colors.colorNoiseRGB.g - a.y
        let db = colors.colorNoiseRGB.b - a.z
        let colorDiff = Lanes.sqrt(dr * dr + dg * dg + db * db)
        let value = Lanes.max(1 - colorDiff, .zero)
        let m = colors.fullValueRGB
        return RGBLanes(value * m.r, value * m.g, value * m.b)
    }

    /// The end of `kiraEffect`: `layer.rgb + kira * mono`.
    @inlinable @inline(__always)
    public static func composite(kira: RGBLanes, layer: RGBLanes, mono: RGBLanes) -> RGBLanes {
        RGBLanes(kira.r * mono.r + layer.r, kira.g * mono.g + layer.g, kira.b * mono.b + layer.b)
    }

    /// The body of `kiraEffect` after the noise: `layer.rgb + generateKiraRGB(hsv2rgb(noise)) * mono`.
    @inlinable @inline(__always)
    public static func kiraEffect(valueNoise: Lanes, layer: RGBLanes, mono: RGBLanes,
                                  angleColorRGB: SIMD3<Float>) -> RGBLanes
    {
        let kira = generateKiraRGB(noiseColors(valueNoise: valueNoise), angleColorRGB: angleColorRGB)
        return composite(kira: kira, layer: layer, mono: mono)
    }
}

/// The per-pixel colours of the kira shine that do not depend on the face normal.
public struct NoiseColors: Sendable {
    /// `hsv2rgb(noise, 1, 1)`.
    public var colorNoiseRGB: RGBLanes
    /// `hsv2rgb(h, s, 1)` for `(h, s) = rgb2hsv(colorNoiseRGB)`.
    public var fullValueRGB: RGBLanes

    @inlinable @inline(__always)
    public init(colorNoiseRGB: RGBLanes, fullValueRGB: RGBLanes) {
        self.colorNoiseRGB = colorNoiseRGB
        self.fullValueRGB = fullValueRGB
    }
}
