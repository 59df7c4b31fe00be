import Dispatch

/// Separable filtering of float planes with clamp-to-edge borders, rows in parallel.
///
/// As in ``SSIM/blur(_:_:_:)``, each output row accumulates whole rows tap by tap, so the inner
/// loops run over contiguous memory and vectorise.
enum PlaneFilter {
    /// The row chunks the planes are cut into for the worker threads: a few per core, so that an
    /// uneven core finishes with the others.
    static func chunks(_ height: Int) -> Int { max(1, min(height, 64)) }

    /// Runs `body` over rows `0..<height` in parallel chunks.
    static func rows(_ height: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let count = chunks(height)
        DispatchQueue.concurrentPerform(iterations: count) { chunk in
            let start = height * chunk / count, end = height * (chunk + 1) / count
            if start < end { body(start..<end) }
        }
    }

    /// `source` filtered along its rows by `taps` (`-r...r`, `r = taps.count / 2`), into `target`.
    static func horizontal(_ source: UnsafeSendablePointer<Float>, _ target: UnsafeSendablePointer<Float>,
                           width: Int, height: Int, taps: [Float]) {
        let r = taps.count / 2
        rows(height) { range in
            // The row padded with its edge pixels, so that every window lies inside it.
            var padded = [Float](repeating: 0, count: width + 2 * r)
            taps.withUnsafeBufferPointer { t in
                padded.withUnsafeMutableBufferPointer { p in
                    for row in range {
                        let line = source.pointer + row * width, o = target.pointer + row * width
                        for i in 0..<r { p[i] = line[0]; p[width + r + i] = line[width - 1] }
                        for i in 0..<width { p[r + i] = line[i] }
                        let t0 = t[0]
                        for column in 0..<width { o[column] = t0 * p[column] }
                        for k in 1..<t.count {
                            let tk = t[k]
                            for column in 0..<width { o[column] += tk * p[column &+ k] }
                        }
                    }
                }
            }
        }
    }

    /// `source` filtered along its columns by `taps`, into `target`; with `accumulate`, the result
    /// times `scale` is added to `target` instead.
    static func vertical(_ source: UnsafeSendablePointer<Float>, _ target: UnsafeSendablePointer<Float>,
                         width: Int, height: Int, taps: [Float], scale: Float = 1, accumulate: Bool = false) {
        let r = taps.count / 2
        let scaled = taps.map { $0 * scale }
        rows(height) { range in
            scaled.withUnsafeBufferPointer { t in
                for row in range {
                    let o = target.pointer + row * width
                    let first = source.pointer + min(max(row - r, 0), height - 1) * width, t0 = t[0]
                    if accumulate {
                        for column in 0..<width { o[column] += t0 * first[column] }
                    } else {
                        for column in 0..<width { o[column] = t0 * first[column] }
                    }
                    for k in 1..<t.count {
                        let tk = t[k], line = source.pointer + min(max(row + k - r, 0), height - 1) * width
                        for column in 0..<width { o[column] += tk * line[column] }
                    }
                }
            }
        }
    }

    /// `√(a² + b²)` of `a` filtered along its columns by `aTaps` and `b` by `bTaps`: the
    /// magnitude of a gradient whose components are never stored whole.
    static func magnitude(_ a: UnsafeSendablePointer<Float>, _ aTaps: [Float], _ b: UnsafeSendablePointer<Float>, _ bTaps: [Float],
                          into target: UnsafeSendablePointer<Float>, width: Int, height: Int) {
        rows(height) { range in
            var rowA = [Float](repeating: 0, count: width), rowB = [Float](repeating: 0, count: width)
            rowA.withUnsafeMutableBufferPointer { ra in
                rowB.withUnsafeMutableBufferPointer { rb in
                    let pa = UnsafeSendablePointer(ra.baseAddress!), pb = UnsafeSendablePointer(rb.baseAddress!)
                    for row in range {
                        column(a, aTaps, row: row, into: pa.pointer, width: width, height: height)
                        column(b, bTaps, row: row, into: pb.pointer, width: width, height: height)
                        let o = target.pointer + row * width
                        for i in 0..<width { o[i] = (pa.pointer[i] * pa.pointer[i] + pb.pointer[i] * pb.pointer[i]).squareRoot() }
                    }
                }
            }
        }
    }

    /// One output row of a vertical pass, clamp-to-edge.
    @inline(__always)
    static func column(_ source: UnsafeSendablePointer<Float>, _ taps: [Float], row: Int, into o: UnsafeMutablePointer<Float>,
                       width: Int, height: Int) {
        let r = taps.count / 2
        taps.withUnsafeBufferPointer { t in
            let first = source.pointer + min(max(row - r, 0), height - 1) * width, t0 = t[0]
            for i in 0..<width { o[i] = t0 * first[i] }
            for k in 1..<t.count {
                let tk = t[k], line = source.pointer + min(max(row + k - r, 0), height - 1) * width
                for i in 0..<width { o[i] += tk * line[i] }
            }
        }
    }
}
