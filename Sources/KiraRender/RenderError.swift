/// Why a render could not start. Raised before any pixel is written.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The face normal is zero, infinite or NaN, so it has no direction.
    case invalidNormal(SIMD3<Float>)
    /// An input image has no pixels.
    case emptyImage(String)

    public var description: String {
        switch self {
        case .invalidNormal(let n):
            "the normal (\(n.x), \(n.y), \(n.z)) has no direction: it must be finite and non-zero"
        case .emptyImage(let name):
            "the \(name) image has no pixels"
        }
    }
}
