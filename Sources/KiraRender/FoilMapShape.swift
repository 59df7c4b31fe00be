import KiraImage

/// The size rule of a foil map: like the mask, any size (it is sampled nearest-neighbour at each
/// art pixel), but of the art's aspect ratio, so that the relief lines up with the art.
public enum FoilMapShape {
    /// Whether a `map`-sized foil map fits `art`: the same aspect ratio, within the half pixel
    /// that rounding a scaled size can add on either side.
    public static func fits(map: SIMD2<Int>, art: SIMD2<Int>) -> Bool {
        guard map.x > 0, map.y > 0, art.x > 0, art.y > 0 else { return false }
        let skew = abs(map.x * art.y - map.y * art.x)
        return 2 * skew <= max(art.x + art.y, map.x + map.y)
    }

    /// Throws when `foilMap` (if any) does not fit `art`.
    static func check(_ foilMap: AnyRGBAImage?, art: SIMD2<Int>) throws(RenderError) {
        guard let foilMap else { return }
        let map = SIMD2(foilMap.width, foilMap.height)
        guard foilMap.width > 0, foilMap.height > 0 else { throw RenderError.emptyImage("foil map") }
        guard fits(map: map, art: art) else { throw RenderError.foilMapShape(map: map, art: art) }
    }
}
