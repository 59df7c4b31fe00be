#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// The original Metal `kiraEffect` (docs/fidelity.md), one pixel at a time, written to be read
/// beside it.
///
/// This is the reference: plain scalar code with the original function names and Metal's
/// definitions of its built-ins (listed below). The fast path in ``KiraLanes`` is tested against
/// it. Arithmetic is IEEE float32; Swift never fuses `a * b + c`, so each operation rounds on its
/// own, as the lattice hash needs: a fused or float64 hash gives a different picture.
///
/// Metal built-ins, as defined by the Metal Shading Language specification:
/// - `fract(x) = min(x - floor(x), 0x1.fffffep-1)`
/// - `mix(x, y, a) = x + (y - x) * a`
/// - `step(edge, x) = x < edge ? 0 : 1`
/// - `clamp(x, lo, hi) = min(max(x, lo), hi)`
/// - `normalize(v) = v / length(v)`, `distance(a, b) = length(a - b)`,
///   `dot(a, b) = a.x * b.x + a.y * b.y + a.z * b.z`, summed left to right.
public enum SeedShader {
    // MARK: Metal built-ins

    @inlinable public static func floor(_ x: Float) -> Float { x.rounded(.down) }

    @inlinable public static func fract(_ x: Float) -> Float {
        Swift.min(x - floor(x), Float(bitPattern: 0x3F7F_FFFF))
    }

    @inlinable public static func mix(_ x: Float, _ y: Float, _ a: Float) -> Float { x + (y - x) * a }

    @inlinable public static func step(_ edge: Float, _ x: Float) -> Float { x < edge ? 0 : 1 }

    @inlinable public static func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float {
        Swift.min(Swift.max(x, lo), hi)
    }

    /// `mod` as the original shader defines it: `x - y * floor(x / y)`.
    @inlinable public static func mod(_ x: Float, _ y: Float) -> Float { x - y * floor(x / y) }

    @inlinable public static func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        a.x * b.x + a.y * b.y + a.z * b.z
    }

    @inlinable public static func normalize(_ v: SIMD3<Float>) -> SIMD3<Float> { v / dot(v, v).squareRoot() }

    @inlinable public static func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return dot(d, d).squareRoot()
    }

    // MARK: The shader's functions

    /// `fract(sin(dot(st, (12.9898, 78.233))) * 43758.5453123)` in float32: the dot rounds after
    /// each product and after the sum (no fused multiply-add), `sin` is libm's `sinf`.
    @inlinable
    public static func generateRandomFloat(_ st: SIMD2<Float>) -> Float {
        let d = st.x * Float(12.9898) + st.y * Float(78.233)
        return fract(sinf(d) * Float(43758.5453123))
    }

    @inlinable
    public static func generateValueNoise(_ st: SIMD2<Float>) -> Float {
        let i = SIMD2(floor(st.x), floor(st.y))
        let f = SIMD2(fract(st.x), fract(st.y))

        let a = generateRandomFloat(i)
        let b = generateRandomFloat(i + SIMD2(1, 0))
        let c = generateRandomFloat(i + SIMD2(0, 1))
        let d = generateRandomFloat(i + SIMD2(1, 1))

        let u = f * f * (3 - 2 * f)

        return mix(a, b, u.x) + (c - a) * u.y * (1 - u.x) + (d - b) * u.x * u.y
    }

    @inlinable
    public static func hsv2rgb(_ hsv: SIMD3<Float>) -> SIMD3<Float> {
        let K = SIMD4<Float>(1, 2.0 / 3.0, 1.0 / 3.0, 3)
        func channel(_ k: Float) -> Float {
            let p = abs(fract(hsv.x + k) * 6 - K.w)
            return hsv.z * mix(K.x, clamp(p - K.x, 0, 1), hsv.y)
        }
        return SIMD3(channel(K.x), channel(K.y), channel(K.z))
    }

    @inlinable
    public static func rgb2hsv(_ rgb: SIMD3<Float>) -> SIMD3<Float> {
        let K = SIMD4<Float>(0, -1.0 / 3.0, 2.0 / 3.0, -1)
        // p = mix(float4(rgb.bg, K.wz), float4(rgb.gb, K.xy), step(rgb.b, rgb.g))
        let s1 = step(rgb.z, rgb.y)
        let p = SIMD4(
            mix(rgb.z, rgb.y, s1), mix(rgb.y, rgb.z, s1),
            mix(K.w, K.x, s1), mix(K.z, K.y, s1))
        // q = mix(float4(p.xyw, rgb.r), float4(rgb.r, p.yzx), step(p.x, rgb.r))
        let s2 = step(p.x, rgb.x)
        let q = SIMD4(
            mix(p.x, rgb.x, s2), mix(p.y, p.y, s2),
            mix(p.w, p.z, s2), mix(rgb.x, p.x, s2))

        let d = q.x - Swift.min(q.w, q.y)
        let e: Float = 1.0e-10
        return SIMD3(abs(q.z + (q.w - q.y) / (6 * d + e)), d / (q.x + e), q.x)
    }

    /// The light direction of `getViewAngle`, `normalize((0, -1, -1))`.
    @usableFromInline package static let lightDirection = normalize(SIMD3(0, -1, -1))

    @inlinable
    public static func getViewAngle(_ normal: SIMD3<Float>) -> Float {
        let faceNormal = normalize(normal)
        return acosf(dot(faceNormal, lightDirection))
    }

    @inlinable
    public static func generateAngleRGB(_ strength: Float, _ normal: SIMD3<Float>) -> SIMD3<Float> {
        let pi = Float.pi
        let angle = mod(getViewAngle(normal) * strength, pi) / pi
        return hsv2rgb(SIMD3(angle, 1, 1))
    }

    @inlinable
    public static func generateKiraRGB(_ colorNoiseRGB: SIMD3<Float>, _ normal: SIMD3<Float>,
                                       strength: Float = KiraParameters.seed.angleStrength) -> SIMD3<Float>
    {
        let angleColorRGB = generateAngleRGB(strength, normal)
        let colorDiff = distance(colorNoiseRGB, angleColorRGB)
        var kiraNoiseHSV = rgb2hsv(colorNoiseRGB)
        kiraNoiseHSV.z = Swift.max(1 - colorDiff, 0)
        return hsv2rgb(kiraNoiseHSV)
    }

    /// The noise coordinate `uv * NOISE_SCALE` of the pixel centred at `position` on a layer of
    /// `size` (width, height).
    @inlinable
    public static func noiseCoordinate(_ position: SIMD2<Float>, size: SIMD2<Float>,
                                       parameters: KiraParameters = .seed) -> SIMD2<Float>
    {
        let fragCoord = SIMD2(position.x, parameters.fragCoordY(position.y, width: size.x, height: size.y))
        let uv = fragCoord / size
        return uv * parameters.noiseScale
    }

    /// `kiraEffect`: the shaded colour of the pixel centred at `position`.
    ///
    /// - Parameters:
    ///   - layer: the card art's RGBA at this pixel, channels in 0...1.
    ///   - size: the layer's width and height (the original's `bounds.zw`).
    ///   - normal: the face's normal (`Rotation.normalFromTilt`, negated for the back).
    ///   - mono: the mask's RGB sampled at `UV = position / size` (see ``nearestTexel(_:size:)``).
    ///   - parameters: the shader's constants.
    ///   - position: the pixel's centre in the layer, in pixels.
    /// - Returns: `layer.rgb + kira`, not clamped, and `layer.a`.
    @inlinable
    public static func kiraEffect(position: SIMD2<Float>, layer: SIMD4<Float>, size: SIMD2<Float>,
                                  normal: SIMD3<Float>, mono: SIMD3<Float>,
                                  parameters: KiraParameters = .seed) -> SIMD4<Float>
    {
        let pos = noiseCoordinate(position, size: size, parameters: parameters)
        let valueNoise = generateValueNoise(pos)
        let colorNoiseRGB = hsv2rgb(SIMD3(valueNoise, 1, 1))
        let kiraNoiseRGB = generateKiraRGB(colorNoiseRGB, normal, strength: parameters.angleStrength) * mono
        return SIMD4(kiraNoiseRGB + SIMD3(layer.x, layer.y, layer.z), layer.w)
    }

    /// The texel a nearest-neighbour, clamp-to-edge sampler reads at normalised coordinate
    /// `coordinate` on an axis of `size` texels: `clamp(floor(coordinate * size), 0, size - 1)`.
    @inlinable
    public static func nearestTexel(_ coordinate: Float, size: Int) -> Int {
        let t = floor(coordinate * Float(size))
        guard t >= 0 else { return 0 }
        return t >= Float(size) ? size - 1 : Int(t)
    }
}
