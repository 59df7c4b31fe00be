/// Why an image, or a stack of frames, of a given size cannot be made. Raised before any pixel
/// memory is allocated.
///
/// Every image checks its size against ``ImageLimits/standard`` (16384 pixels a side) when it is
/// made, with overflow-checked arithmetic: a program that embeds Kira gets this error for a size
/// that is wrong, never a trap, and every image that exists has a size whose byte counts fit in
/// an `Int`.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A side is negative.
    case negativeSize(width: Int, height: Int)
    /// A side is 0 where an image needs pixels (a drawn sample card).
    case empty(width: Int, height: Int)
    /// Wider or taller than the limits allow, or more pixels.
    case tooLarge(width: Int, height: Int, limits: ImageLimits)
    /// The channel values are not `width × height × 4`.
    case channelCount(width: Int, height: Int, count: Int)
    /// A stack of frames of a negative count, or of more pixels in all than
    /// ``ImageLimits/standard`` allows one image.
    case frameCount(Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case .negativeSize(let width, let height):
            return "an image cannot be \(width)×\(height): a side must not be negative"
        case .empty(let width, let height):
            return "a \(width)×\(height) image has no pixels: it needs at least a pixel a side"
        case .tooLarge(let width, let height, let limits):
            return width > limits.maxSide || height > limits.maxSide
                ? "a \(width)×\(height) image is over the limit of \(limits.maxSide) pixels a side"
                : "a \(width)×\(height) image is over the limit of \(limits.maxPixels) pixels"
        case .channelCount(let width, let height, let count):
            // The case is public: its numbers need not come from a checked size.
            guard let expected = ImageLimits.channelCount(width: width, height: height) else {
                return "a \(width)×\(height) image cannot hold \(count) channel values"
            }
            return "a \(width)×\(height) image holds \(expected) channel values, not \(count)"
        case .frameCount(let count, let width, let height):
            return count < 0
                ? "a stack of frames cannot hold \(count) frames"
                : "\(count) frames of \(width)×\(height) are over the limit of \(ImageLimits.standard.maxPixels) pixels a stack"
        }
    }
}
