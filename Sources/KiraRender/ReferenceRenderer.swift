import KiraImage
import KiraLaneJobs
import KiraShader

/// The plain scalar renderer: every pixel through the foil's reference
/// (``/KiraShader/FoilShader/reference(_:normal:parameters:)``; for the default foil, the original's
/// ``/KiraShader/SeedShader/kiraEffect(position:layer:size:normal:mono:parameters:)``) and the
/// glare's (``/KiraShader/Glare/apply(_:coverage:position:frame:)``).
///
/// Slow and obvious on purpose. It is the reference the fast ``ShadeRenderer`` is tested against
/// and what golden images are made with; it shares no lane code with the fast path.
public enum ReferenceRenderer {
    /// Shades `art` with `mask` (and `foilMap`, for foils that read a height field) for a face of
    /// normal `normal`.
    ///
    /// With `premultiplied`, the shader reads the art premultiplied and its result is stored as
    /// it is, premultiplied: what SwiftUI's `layerEffect` hands to the compositor (see
    /// ``ShadeRenderer/shade(art:mask:foilMap:normals:parameters:premultiplied:into:)``).
    public static func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage? = nil, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, premultiplied: Bool = false, as: Out.Type
    ) throws(RenderError) -> RGBAImage<Out> {
        guard KiraUniforms.isValidNormal(normal) else { throw RenderError.invalidNormal(normal) }
        try ShadeRenderer.validate(art: art, mask: mask, foilMap: foilMap, parameters: parameters)
        let shading = Shading(art: art, mask: mask, foilMap: foilMap, normal: normal, parameters: parameters,
                              premultiplied: premultiplied)
        return FoilRegistry.with(parameters.foil, ShadeWithFoil<In, M, Out>(shading: shading))
    }

    /// One face to shade.
    private struct Shading<In: LaneChannel, M: LaneChannel> {
        let art: RGBAImage<In>
        let mask: RGBAImage<M>
        let foilMap: AnyRGBAImage?
        let normal: SIMD3<Float>
        let parameters: KiraParameters
        let premultiplied: Bool

        /// The face shaded with the foil `F`.
        func shade<F: FoilShader, Out: LaneChannel>(_: F.Type, as: Out.Type) -> RGBAImage<Out> {
            let size = SIMD2(Float(art.width), Float(art.height))
            let glare = parameters.glare > 0 ? Glare.frame(normal: normal, size: size, strength: parameters.glare) : nil
            var output = RGBAImage<Out>(sizeOf: art)
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
                        ? SIMD3(In.normalized(a.x) * alpha, In.normalized(a.y) * alpha, In.normalized(a.z) * alpha)
                        : SIMD3(In.normalized(a.x), In.normalized(a.y), In.normalized(a.z))
                    let sample = FoilSample(
                        x: x, y: y, size: size, layer: layer, alpha: alpha, mono: mono, intensity: parameters.intensity,
                        premultiplied: premultiplied,
                        heightAt: { dx, dy in height(x: min(max(x + dx, 0), art.width - 1), y: min(max(y + dy, 0), art.height - 1)) })
                    var c = F.reference(sample, normal: normal, parameters: parameters)
                    if let glare { c = Glare.apply(c, coverage: sample.coverage, position: position, frame: glare) }
                    output[x, y] = SIMD4(Out.quantize(c.x), Out.quantize(c.y), Out.quantize(c.z), Out.quantize(alpha))
                }
            }
            return output
        }

        /// The height field at art pixel (`x`, `y`): the luminance of the foil map's (else the
        /// mask's) nearest texel.
        func height(x: Int, y: Int) -> Float {
            let uv = SIMD2(Float(x) + 0.5, Float(y) + 0.5) / SIMD2(Float(art.width), Float(art.height))
            switch foilMap ?? M.erased(mask) {
            case .rgba8(let map): return Self.luminance(map, uv)
            case .rgba16(let map): return Self.luminance(map, uv)
            }
        }

        static func luminance<C: LaneChannel>(_ image: RGBAImage<C>, _ uv: SIMD2<Float>) -> Float {
            let t = image[SeedShader.nearestTexel(uv.x, size: image.width), SeedShader.nearestTexel(uv.y, size: image.height)]
            return HeightField.luminance(SIMD3(C.normalized(t.x), C.normalized(t.y), C.normalized(t.z)))
        }
    }

    private struct ShadeWithFoil<In: LaneChannel, M: LaneChannel, Out: LaneChannel>: FoilTypeConsumer {
        let shading: Shading<In, M>
        func callAsFunction<F: FoilShader>(_ foil: F.Type) -> RGBAImage<Out> { shading.shade(foil, as: Out.self) }
    }
}
