/// Why a render could not start. Raised before any pixel is written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The face normal is zero, infinite or NaN, so it has no direction.
    case invalidNormal(SIMD3<Float>)
    /// An input image has no pixels.
    case emptyImage(String)
    /// The look's parameters are out of range (the message names the range).
    case invalidParameters(String)
    /// The foil map's aspect ratio is not the art's.
    case foilMapShape(map: SIMD2<Int>, art: SIMD2<Int>)

    public var description: String {
        switch self {
        case .invalidNormal(let n):
            "the normal (\(n.x), \(n.y), \(n.z)) has no direction: it must be finite and non-zero"
        case .emptyImage(let name):
            "the \(name) image has no pixels"
        case .invalidParameters(let problem):
            problem
        case .foilMapShape(let map, let art):
            "the foil map is \(map.x)×\(map.y) and the art \(art.x)×\(art.y): a foil map may have any size of the art's aspect ratio"
        }
    }
}
