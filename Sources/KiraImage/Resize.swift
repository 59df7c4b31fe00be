extension RGBAImage {
    /// The image scaled to `width` × `height` with bilinear filtering (pixel centres aligned,
    /// edges clamped); a box filter over the covered pixels first when shrinking by more than 2×
    /// in either direction, so that no detail aliases.
    public func resized(width newWidth: Int, height newHeight: Int) -> RGBAImage {
        precondition(newWidth > 0 && newHeight > 0, "the new size must not be empty")
        if newWidth == width && newHeight == height { return self }
        var source = self
        while source.width >= 4 * newWidth || source.height >= 4 * newHeight {
            source = source.halved()
        }
        var output = RGBAImage(width: newWidth, height: newHeight)
        let sx = Double(source.width) / Double(newWidth), sy = Double(source.height) / Double(newHeight)
        source.channels.withUnsafeBufferPointer { src in
            output.channels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<newHeight {
                    let fy = max(0, min(Double(source.height - 1), (Double(y) + 0.5) * sy - 0.5))
                    let y0 = Int(fy), y1 = min(y0 + 1, source.height - 1), wy = fy - Double(y0)
                    for x in 0..<newWidth {
                        let fx = max(0, min(Double(source.width - 1), (Double(x) + 0.5) * sx - 0.5))
                        let x0 = Int(fx), x1 = min(x0 + 1, source.width - 1), wx = fx - Double(x0)
                        for c in 0..<4 {
                            func at(_ x: Int, _ y: Int) -> Double { Double(src[(y * source.width + x) * 4 + c]) }
                            let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * wx
                            let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * wx
                            dst[(y * newWidth + x) * 4 + c] = Channel((top + (bottom - top) * wy).rounded())
                        }
                    }
                }
            }
        }
        return output
    }

    /// Half the size (rounded up), each pixel the mean of the up to four it covers (rounded half
    /// up).
    private func halved() -> RGBAImage {
        var output = RGBAImage(width: (width + 1) / 2, height: (height + 1) / 2)
        let size = (width, height)
        // On the concrete channel type: generic integer conversions per channel made a contact
        // sheet of 24 canvases cost half a minute.
        channels.withUnsafeBytes { src in
            output.channels.withUnsafeMutableBytes { dst in
                if MemoryLayout<Channel>.size == 1 {
                    halve(src.assumingMemoryBound(to: UInt8.self), size, into: dst.assumingMemoryBound(to: UInt8.self))
                } else {
                    halve(src.assumingMemoryBound(to: UInt16.self), size, into: dst.assumingMemoryBound(to: UInt16.self))
                }
            }
        }
        return output
    }
}

/// `RGBAImage.halved()` of the `size.0` × `size.1` RGBA pixels `src`: a free function, so that
/// it is specialised for each channel type (a member of the generic image type was not).
private func halve<T: FixedWidthInteger & UnsignedInteger>(
    _ src: UnsafeBufferPointer<T>, _ size: (width: Int, height: Int), into dst: UnsafeMutableBufferPointer<T>
) {
    let (width, height) = size
    let w = (width + 1) / 2, h = (height + 1) / 2
    for y in 0..<h {
        // The rows and columns covered: two, or one at an odd edge.
        let top = 2 * y, bottom = min(2 * y + 1, height - 1)
        let rows = bottom == top ? 1 : 2
        for x in 0..<w {
            let left = 2 * x, right = min(2 * x + 1, width - 1)
            let count = rows * (right == left ? 1 : 2)
            for c in 0..<4 {
                var sum = Int(src[(top * width + left) * 4 + c])
                if right != left { sum += Int(src[(top * width + right) * 4 + c]) }
                if bottom != top {
                    sum += Int(src[(bottom * width + left) * 4 + c])
                    if right != left { sum += Int(src[(bottom * width + right) * 4 + c]) }
                }
                dst[(y * w + x) * 4 + c] = T((sum + count / 2) / count)
            }
        }
    }
}
