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

    /// Half the size (rounded up), each pixel the mean of the up to four it covers.
    private func halved() -> RGBAImage {
        let w = (width + 1) / 2, h = (height + 1) / 2
        var output = RGBAImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0, count = 0
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] where 2 * x + dx < width && 2 * y + dy < height {
                        sum += Int(channels[((2 * y + dy) * width + 2 * x + dx) * 4 + c])
                        count += 1
                    }
                    output.channels[(y * w + x) * 4 + c] = Channel((sum + count / 2) / count)
                }
            }
        }
        return output
    }
}
