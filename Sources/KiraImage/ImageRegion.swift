#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A rectangle of pixels in an image: columns `x..<x+width`, rows `y..<y+height`.
public struct ImageRegion: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

extension RGBAImage {
    /// The smallest rectangle outside which this image equals `previous` (of the same size),
    /// or nil when the two are equal.
    ///
    /// Rows are compared whole first (`memcmp` speed), and only the rows that differ are
    /// scanned for their first and last differing pixel.
    public func changedRegion(since previous: RGBAImage) -> ImageRegion? {
        precondition(width == previous.width && height == previous.height, "images of different sizes")
        let pixelBytes = 4 * MemoryLayout<Channel>.size
        let rowBytes = width * pixelBytes
        return channels.withUnsafeBytes { now in
            previous.channels.withUnsafeBytes { before in
                var top = -1, bottom = -1, left = width, right = -1
                for y in 0..<height where memcmp(now.baseAddress! + y * rowBytes, before.baseAddress! + y * rowBytes, rowBytes) != 0 {
                    if top < 0 { top = y }
                    bottom = y
                    let row = y * rowBytes
                    // A pixel is one 4- or 8-byte word: compared inline (a memcmp call per pixel
                    // was a tenth of an animation's time).
                    func differs(_ x: Int) -> Bool {
                        let offset = row + x * pixelBytes
                        return pixelBytes == 4
                            ? now.loadUnaligned(fromByteOffset: offset, as: UInt32.self) != before.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                            : now.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != before.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    }
                    // Only columns outside the rectangle found so far can widen it.
                    var x = 0
                    while x < left, !differs(x) { x += 1 }
                    left = min(left, x)
                    x = width - 1
                    while x > right, !differs(x) { x -= 1 }
                    right = max(right, x)
                }
                guard top >= 0 else { return nil }
                return ImageRegion(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }
}
