import KiraImage
import KiraShader

/// The plain scalar renderer: every pixel through ``/KiraShader/SeedShader/kiraEffect(position:layer:size:normal:mono:parameters:)``.
///
/// Slow and obvious on purpose. It is the reference the fast ``ShadeRenderer`` is tested against
/// and what golden images are made with; it shares no shader code with the fast path.
public enum ReferenceRenderer {
    /// Shades `art` with `mask` for a face of normal `normal`.
    ///
    /// With `premultiplied`, the shader reads the art premultiplied and its result is stored as
    /// it is, premultiplied: what SwiftUI's `layerEffect` hands to the compositor (see
    /// ``ShadeRenderer/shade(art:mask:normals:parameters:premultiplied:into:)``).
    public static func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, premultiplied: Bool = false, as: Out.Type
    ) throws(RenderError) -> RGBAImage<Out> {
        guard KiraUniforms.isValidNormal(normal) else { throw RenderError.invalidNormal(normal) }
        guard art.width > 0, art.height > 0 else { throw RenderError.emptyImage("art") }
        guard mask.width > 0, mask.height > 0 else { throw RenderError.emptyImage("mask") }
        let size = SIMD2(Float(art.width), Float(art.height))
        var output = RGBAImage<Out>(width: art.width, height: art.height)
        for y in 0..<art.height {
            for x in 0..<art.width {
                let position = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
                let uv = position / size
                let texel = mask[
                    SeedShader.nearestTexel(uv.x, size: mask.width),
                    SeedShader.nearestTexel(uv.y, size: mask.height)]
                let mono = SIMD3(M.normalized(texel.x), M.normalized(texel.y), M.normalized(texel.z))
                let a = art[x, y]
                let alpha = In.normalized(a.w)
                let layer = premultiplied
                    ? SIMD4(In.normalized(a.x) * alpha, In.normalized(a.y) * alpha, In.normalized(a.z) * alpha, alpha)
                    : SIMD4(In.normalized(a.x), In.normalized(a.y), In.normalized(a.z), alpha)
                let c = SeedShader.kiraEffect(
                    position: position, layer: layer, size: size, normal: normal, mono: mono, parameters: parameters)
                output[x, y] = SIMD4(Out.quantize(c.x), Out.quantize(c.y), Out.quantize(c.z), Out.quantize(c.w))
            }
        }
        return output
    }
}
