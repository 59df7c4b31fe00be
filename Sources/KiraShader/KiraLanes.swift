/// The shader's fast path: seed 003's functions on ``Lanes`` of sixteen pixels.
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

    /// `generateKiraRGB` given the face's `angleColorRGB` (``KiraUniforms``).
    @inlinable @inline(__always)
    public static func generateKiraRGB(_ colorNoiseRGB: RGBLanes, angleColorRGB a: SIMD3<Float>) -> RGBLanes {
        let dr = colorNoiseRGB.r - a.x
        let dg = colorNoiseRGB.g - a.y
        let db = colorNoiseRGB.b - a.z
        let colorDiff = Lanes.sqrt(dr * dr + dg * dg + db * db)
        let hsv = rgb2hsv(colorNoiseRGB)
        let value = Lanes.max(1 - colorDiff, .zero)
        return hsv2rgb(hsv.r, hsv.g, value)
    }

    /// The body of `kiraEffect` after the noise: `layer.rgb + generateKiraRGB(hsv2rgb(noise)) * mono`.
    @inlinable @inline(__always)
    public static func kiraEffect(valueNoise: Lanes, layer: RGBLanes, mono: RGBLanes,
                                  angleColorRGB: SIMD3<Float>) -> RGBLanes
    {
        let one = Lanes(repeating: 1)
        let colorNoiseRGB = hsv2rgb(valueNoise, one, one)
        let kira = generateKiraRGB(colorNoiseRGB, angleColorRGB: angleColorRGB)
        return RGBLanes(
            kira.r * mono.r + layer.r,
            kira.g * mono.g + layer.g,
            kira.b * mono.b + layer.b)
    }
}

/// What the shader needs to know about a face, computed once per face and frame.
public struct KiraUniforms: Sendable, Equatable {
    /// The face normal as given.
    public var normal: SIMD3<Float>
    /// `generateAngleRGB(ANGLE_STRENGTH, normal)`: the hue the view angle selects.
    public var angleColorRGB: SIMD3<Float>

    /// - Precondition: `normal` has a finite, non-zero length (``isValidNormal(_:)``).
    public init(normal: SIMD3<Float>, parameters: KiraParameters = .seed) {
        precondition(Self.isValidNormal(normal), "the face normal must be finite and non-zero")
        self.normal = normal
        self.angleColorRGB = SeedShader.generateAngleRGB(parameters.angleStrength, normal)
    }

    /// Whether `normal` can be normalised: finite components and a non-zero length.
    public static func isValidNormal(_ normal: SIMD3<Float>) -> Bool {
        let lengthSquared = SeedShader.dot(normal, normal)
        return normal.x.isFinite && normal.y.isFinite && normal.z.isFinite
            && lengthSquared > 0 && lengthSquared.isFinite
    }
}
