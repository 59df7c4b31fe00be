import KiraFormats
import KiraImage
import KiraRender

/// The rules a per-pixel map over a card face — a holo mask, a foil map — follows to fit the
/// face's art, so that every map a user gives lines up with the art the same way.
public enum FaceMap {
    /// `map`, read from the file of the parameter `parameter`, made ready to shade art of
    /// `artWidth` × `artHeight`:
    /// - its RGB are multiplied by its alpha, so that white paint on a transparent layer shines
    ///   only where painted (an opaque map is unchanged);
    /// - a map of the art's size is then used pixel for pixel, as the seed samples it; a larger
    ///   one is sampled nearest-neighbour by the shader, as before;
    /// - a smaller one is upscaled to the art's size bilinearly (libswscale): nearest-neighbour
    ///   would show its pixels as steps (a 126×176 mask on 1260×1760 art made 10-pixel stairs);
    /// - a map of another aspect ratio than the art's is refused, naming both sizes: stretched, it
    ///   would no longer line up. One pixel of rounding is allowed (a 63×89 mask fits 630×880
    ///   art: 880 × 63/630 is 88.2).
    public static func fitted(_ map: AnyRGBAImage, artWidth: Int, artHeight: Int, parameter: String) throws(RequestError) -> AnyRGBAImage {
        try checkShape(width: map.width, height: map.height, artWidth: artWidth, artHeight: artHeight, parameter: parameter)
        var map = map
        if !map.isOpaque { map = multipliedByAlpha(map) }
        if map.width < artWidth {
            map = switch map {
            case .rgba8(let image): .rgba8(try upscaled(image, width: artWidth, height: artHeight, parameter: parameter))
            case .rgba16(let image): .rgba16(try upscaled(image, width: artWidth, height: artHeight, parameter: parameter))
            }
        }
        return map
    }

    private static func upscaled<C>(_ map: RGBAImage<C>, width: Int, height: Int, parameter: String) throws(RequestError) -> RGBAImage<C> {
        do { return try map.bilinearScaled(width: width, height: height) } catch { throw RequestError(parameter: parameter, reason: error.reason) }
    }

    /// Refuses a map of `width` × `height` whose aspect ratio is not the art's
    /// (``/KiraRender/FaceMapShape``), with both sizes.
    public static func checkShape(width: Int, height: Int, artWidth: Int, artHeight: Int, parameter: String) throws(RequestError) {
        guard !FaceMapShape.fits(map: SIMD2(width, height), art: SIMD2(artWidth, artHeight)) else { return }
        let half = artWidth % 2 == 0 && artHeight % 2 == 0 ? " or \(artWidth / 2)×\(artHeight / 2)" : ""
        throw RequestError(parameter: parameter, reason: "is \(width)×\(height), the art \(artWidth)×\(artHeight): "
                           + "a map must have the art's aspect ratio to line up with it (e.g. \(artWidth)×\(artHeight)\(half))")
    }

    /// `map` with its RGB multiplied by its alpha (rounded to nearest) and made opaque.
    static func multipliedByAlpha(_ map: AnyRGBAImage) -> AnyRGBAImage {
        func multiply<C: ImageChannel>(_ image: RGBAImage<C>) -> RGBAImage<C> {
            var image = image
            let max = UInt64(C.max)
            image.channels.withUnsafeMutableBufferPointer { p in
                for i in stride(from: 0, to: p.count, by: 4) {
                    let a = UInt64(p[i + 3])
                    for c in 0..<3 { p[i + c] = C((UInt64(p[i + c]) * a + max / 2) / max) }
                    p[i + 3] = C.max
                }
            }
            return image
        }
        return switch map {
        case .rgba8(let image): .rgba8(multiply(image))
        case .rgba16(let image): .rgba16(multiply(image))
        }
    }
}
