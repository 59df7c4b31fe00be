import CKiraLanes

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

    /// `hsv2rgb(h, 1, 1)`: the reference's result bit for bit, for every finite `h`, without the
    /// `mix` by the saturation and without `fract`'s cap.
    ///
    /// - With a saturation and value of 1 the reference's channel is `1 + (c - 1)` for
    ///   `c = clamp(p - 1, 0, 1)`, and that is `c` exactly: `p - 1` is exact for `p` in 1...2
    ///   (Sterbenz) and a multiple of 2⁻²³ there, so `c` is 0, 1 or such a multiple, whose
    ///   difference with 1 and sum back are exact.
    /// - `fract` caps `x - floor(x)` at the largest float below 1 where it rounds up to 1 (`x`
    ///   negative and within 2⁻²⁵ of 0): `p` is then 2.9999995 with the cap and 3 without, and
    ///   either way `p - 1` is above 1 and the channel 1.
    ///
    /// `Tests/Exhaustive/saturated-color.c` checks every finite float once.
    @inlinable @inline(__always)
    public static func saturatedColor(_ h: Lanes) -> RGBLanes {
        @inline(__always) func channel(_ k: Float) -> Lanes {
            let x = h + k
            return Lanes.clamp(Lanes.abs((x - kira_floor(x)) * 6 - 3) - 1, .zero, Lanes(repeating: 1))
        }
        return RGBLanes(channel(1), channel(2.0 / 3.0), channel(1.0 / 3.0))
    }

    /// `rgb2hsv` for colours whose channels are finite and not -0, as every colour of
    /// ``hsv2rgb(_:_:_:)`` is: the reference's result bit for bit in fewer operations.
    ///
    /// Each of the reference's `mix(x, y, s)` with a step `s` is `x` where the step is 0 and
    /// `x + (y - x)` where it is 1 (`kira_mix_step` in the lanes header); `mix(p.y, p.y, s2)` is `p.y`; and `q.z`
    /// is one of four constants, each worked out by the reference's own operations.
    @inlinable @inline(__always)
    public static func rgb2hsv(_ c: RGBLanes) -> RGBLanes {
        let q = hsvTerms(c)
        let d = q.x - Lanes.min(q.w, q.y)
        let e: Float = 1.0e-10
        return RGBLanes(Lanes.abs(q.z + (q.w - q.y) / (6 * d + e)), d / (q.x + e), q.x)
    }

    /// The reference `rgb2hsv`'s `q` for `c`, by steps chosen rather than multiplied
    /// (``rgb2hsv(_:)``).
    @inlinable @inline(__always)
    static func hsvTerms(_ c: RGBLanes) -> (x: Lanes, y: Lanes, z: Lanes, w: Lanes) {
        // step(c.b, c.g) chooses p, step(p.x, c.r) chooses q (the reference's order).
        let px = kira_mix_step(c.b, c.g, c.b, c.g)
        let py = kira_mix_step(c.g, c.b, c.b, c.g)
        @inline(__always) func qz(_ s1: Float, _ s2: Float) -> Lanes {
            let pz = SeedShader.mix(-1, 0, s1), pw = SeedShader.mix(2.0 / 3.0, -1.0 / 3.0, s1)
            return Lanes(repeating: SeedShader.mix(pw, pz, s2))
        }
        let qz = kira_select_step(kira_select_step(qz(0, 0), qz(1, 0), c.b, c.g),
                                  kira_select_step(qz(0, 1), qz(1, 1), c.b, c.g), px, c.r)
        return (kira_mix_step(px, c.r, px, c.r), py, qz, kira_mix_step(c.r, px, px, c.r))
    }

    /// The hue `rgb2hsv` gives a colour of `hsv2rgb(h, 1, 1)` for `h` greater than -2.5 and less
    /// than 2: the reference's result bit for bit, without its saturation.
    ///
    /// For every float `h` in that range the colour's largest channel is exactly 1 and its
    /// smallest exactly 0 (checked on each of them once; the first failures are at -2.5 and 2), so
    /// the reference's `d` is 1, its `6 * d + e` is 6 and its saturation `d / (q.x + e)` is 1: one
    /// division fewer than ``rgb2hsv(_:)``, and the saturation is known to be 1.
    @inlinable @inline(__always)
    package static func saturatedHue(_ c: RGBLanes) -> Lanes {
        let q = hsvTerms(c)
        return Lanes.abs(q.z + (q.w - q.y) / 6)
    }

    /// The tilt-independent half of `generateKiraRGB`: the noise colour and the colour its hue
    /// and saturation give at value 1 (`hsv2rgb` of `rgb2hsv(colorNoiseRGB)` before the multiply
    /// by the value). Both depend on the pixel only, never on the face normal.
    ///
    /// The reference's bits for value noise greater than -2.5 and less than 2 (the noise lies
    /// in 0...1): there the saturation is 1 (``saturatedHue(_:)``), so both colours are
    /// ``saturatedColor(_:)``.
    @inlinable @inline(__always)
    package static func noiseColors(valueNoise: Lanes) -> NoiseColors {
        let colorNoiseRGB = saturatedColor(valueNoise)
        return NoiseColors(colorNoiseRGB: colorNoiseRGB, fullValueRGB: saturatedColor(saturatedHue(colorNoiseRGB)))
    }

    /// The tilt-dependent half of `generateKiraRGB`: the value from the distance to the view
    /// angle's colour, times the colour at value 1. With ``noiseColors(valueNoise:)`` this is
    /// `generateKiraRGB` operation for operation (multiplying by a value of 1 is exact).
    @inlinable @inline(__always)
    package static func generateKiraRGB(_ colors: NoiseColors, angleColorRGB a: SIMD3<Float>) -> RGBLanes {
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
@usableFromInline package struct NoiseColors: Sendable {
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
