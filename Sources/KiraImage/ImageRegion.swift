#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// A rectangle of pixels in an image: columns `x..<x+width`, rows `y..<y+height`. Its JSON is
/// `{"x": …, "y": …, "width": …, "height": …}`.
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

    /// Whether the rectangle holds no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels in both (empty, at this rectangle's corner, when they do not meet).
    public func intersection(_ other: ImageRegion) -> ImageRegion {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return ImageRegion(x: x, y: y, width: 0, height: 0) }
        return ImageRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both (either may be empty).
    public func union(_ other: ImageRegion) -> ImageRegion {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        let x1 = max(x + width, other.x + other.width), y1 = max(y + height, other.y + other.height)
        return ImageRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension RGBAImage {
    /// The smallest rectangle outside which this image equals `previous` (of the same size),
    /// or nil when the two are equal.
    ///
    /// Only `candidates` is compared when given: a rectangle outside which the caller knows the
    /// two are equal (a renderer knows where it drew; a canvas is 30 MB, and reading two of them
    /// whole cost more than a tenth of an animation's time). Rows are compared whole first
    /// (`memcmp` speed), and only the rows that differ are scanned for their first and last
    /// differing pixel.
    public func changedRegion(since previous: RGBAImage, candidates: ImageRegion? = nil) -> ImageRegion? {
        precondition(width == previous.width && height == previous.height, "images of different sizes")
        let area = candidates ?? ImageRegion(x: 0, y: 0, width: width, height: height)
        precondition(area.x >= 0 && area.y >= 0 && area.x + area.width <= width && area.y + area.height <= height,
                     "the candidate rectangle must lie inside the image")
        guard !area.isEmpty else { return nil }
        let pixelBytes = 4 * MemoryLayout<Channel>.size
        let rowBytes = width * pixelBytes
        let areaBytes = area.width * pixelBytes
        return channels.withUnsafeBytes { now in
            previous.channels.withUnsafeBytes { before in
                var top = -1, bottom = -1, left = area.x + area.width, right = area.x - 1
                for y in area.y..<(area.y + area.height) {
                    let start = y * rowBytes + area.x * pixelBytes
                    guard memcmp(now.baseAddress! + start, before.baseAddress! + start, areaBytes) != 0 else { continue }
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
                    var x = area.x
                    while x < left, !differs(x) { x += 1 }
                    left = min(left, x)
                    x = area.x + area.width - 1
                    while x > right, !differs(x) { x -= 1 }
                    right = max(right, x)
                }
                guard top >= 0 else { return nil }
                return ImageRegion(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
            }
        }
    }
}

extension RGBAImage {
    /// The pixels of `region`, which must lie inside the image, as an image of its own.
    public func cropped(to region: ImageRegion) -> RGBAImage {
        precondition(holds(region), "the rectangle must lie inside the image")
        guard !region.isEmpty else { return RGBAImage() }
        if region.width == width, region.height == height { return self }
        let count = region.width * region.height * 4
        let out = [Channel](unsafeUninitializedCapacity: count) { buffer, initialized in
            copyChannels(of: region, into: buffer)
            initialized = count
        }
        return RGBAImage(checkedWidth: region.width, height: region.height, channels: out)
    }

    /// Copies the channels of `region`, which must lie inside the image, to the start of
    /// `destination`, rows top to bottom with nothing between them: the region's pixels straight
    /// into memory of the caller's (a message's buffer), with no image of their own between.
    package func copyChannels(of region: ImageRegion, into destination: UnsafeMutableBufferPointer<Channel>) {
        precondition(holds(region), "the rectangle must lie inside the image")
        let rowChannels = region.width * 4
        precondition(destination.count >= rowChannels * region.height, "the destination must take the region")
        guard !region.isEmpty else { return }
        channels.withUnsafeBufferPointer { source in
            for row in 0..<region.height {
                (destination.baseAddress! + row * rowChannels)
                    .update(from: source.baseAddress! + ((region.y + row) * width + region.x) * 4, count: rowChannels)
            }
        }
    }

    /// Whether `region` lies inside the image.
    private func holds(_ region: ImageRegion) -> Bool {
        region.x >= 0 && region.y >= 0 && region.x + region.width <= width && region.y + region.height <= height
    }

    /// The pixel at (`x`, `y`): red, green, blue, alpha.
    public func pixel(x: Int, y: Int) -> SIMD4<Channel> {
        let i = (y * width + x) * 4
        return SIMD4(channels[i], channels[i + 1], channels[i + 2], channels[i + 3])
    }
}

// JSON for the live preview's frames and the records; Embedded Swift (the WebAssembly build)
// has no Codable.
#if !hasFeature(Embedded)
extension ImageRegion: Codable {}
#endif
