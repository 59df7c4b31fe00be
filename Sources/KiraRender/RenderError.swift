import KiraImage

/// Why a face, a scene or a render was refused. Raised before any pixel is written, and before
/// anything is allocated for it.
///
/// The renderers and the types they take check every value a caller gives them (sizes, poses,
/// scales, offsets, colours, images) and throw this error for one that is wrong, never trap:
/// the Input Contract article of the `Kira` documentation lists what is checked.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The face normal is zero, infinite or NaN, so it has no direction.
    case invalidNormal(SIMD3<Float>)
    /// An input image has no pixels.
    case emptyImage(String)
    /// The look's parameters are out of range (the message names the range).
    case invalidParameters(String)
    /// The foil map's aspect ratio is not the art's.
    case foilMapShape(map: SIMD2<Int>, art: SIMD2<Int>)
    /// An image (named: `front art`, `canvas`) has a negative side or is over
    /// ``/KiraImage/ImageLimits/standard``, or its channels do not match its size.
    case invalidImage(String, ImageError)
    /// A number that must be finite is NaN or infinite; named as the property that holds it
    /// (`pose.tiltX`, `cardOffset.x`).
    case nonFinite(String, Double)
    /// The card's scale is not a finite number above 0.
    case invalidScale(Double)
    /// A background colour channel is not a number in 0...1.
    case invalidColor(SIMD3<Float>)

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
        case .invalidImage(let name, let error):
            "the \(name): \(error)"
        case .nonFinite(let name, let value):
            "\(name) is \(Self.text(value)): it must be a finite number"
        case .invalidScale(let scale):
            "the card's scale must be a finite number above 0, not \(Self.text(scale))"
        case .invalidColor(let color):
            "the background colour must have channels between 0 and 1, not \(color.x), \(color.y), \(color.z)"
        }
    }
}

extension RenderError {
    /// `value` as a message shows it. Embedded Swift's `Double` printing needs 128-bit
    /// multiplication, which the WebAssembly build does not link: there it is printed as a
    /// `Float` (exact for NaN and the infinities, which is what these messages mostly show).
    static func text(_ value: Double) -> String {
        #if arch(wasm32)
        "\(Float(value))"
        #else
        "\(value)"
        #endif
    }
}
