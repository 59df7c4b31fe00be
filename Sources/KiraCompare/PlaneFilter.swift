import Dispatch

/// Separable filtering of float planes with clamp-to-edge borders, rows in parallel.
///
/// Each output is summed over its taps in a register of sixteen lanes (sixteen neighbouring
/// columns) and stored once; rows are padded with their edge pixels, and a vertical pass reads
/// the clamped rows, so no window needs a bounds check.
enum PlaneFilter {
    typealias Lanes = SIMD16<Float>

    /// Runs `body` over rows `0..<height` in parallel chunks, a few per core so that a core
    /// slowed by other work holds up the rest less.
    static func rows(_ height: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let count = max(1, min(height, 64))
        DispatchQueue.concurrentPerform(iterations: count) { chunk in
            let start = height * chunk / count, end = height * (chunk + 1) / count
            if start < end { body(start..<end) }
        }
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }

    @inline(__always)
    static func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self) }

    /// `source` filtered along its rows by `taps` (`-r...r`, `r = taps.count / 2`), into `target`.
    static func horizontal(_ source: UnsafeSendablePointer<Float>, _ target: UnsafeSendablePointer<Float>,
                           width: Int, height: Int, taps: [Float]) {
        let r = taps.count / 2
        rows(height) { range in
            // The row padded with its edge pixels, and room for a last block of lanes.
            var padded = [Float](repeating: 0, count: width + 2 * r + Lanes.scalarCount)
            taps.withUnsafeBufferPointer { t in
                padded.withUnsafeMutableBufferPointer { p in
                    let p = p.baseAddress!
                    for row in range {
                        let line = source.pointer + row * width, o = target.pointer + row * width
                        for i in 0..<r { p[i] = line[0]; p[width + r + i] = line[width - 1] }
                        (p + r).update(from: line, count: width)
                        var column = 0
                        while column + Lanes.scalarCount <= width {
                            var sum = Lanes()
                            for k in 0..<t.count { sum += t[k] * load(p + column + k) }
                            store(sum, o + column)
                            column += Lanes.scalarCount
                        }
                        while column < width {
                            var sum: Float = 0
                            for k in 0..<t.count { sum += t[k] * p[column + k] }
                            o[column] = sum
                            column += 1
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
        let scaled = taps.map { $0 * scale }
        rows(height) { range in
            var lines = [UnsafePointer<Float>](repeating: UnsafePointer(source.pointer), count: scaled.count)
            for row in range {
                column(source, scaled, row: row, lines: &lines, into: target.pointer + row * width, width: width, height: height,
                       accumulate: accumulate)
            }
        }
    }

    /// `√(a² + b²)` of `a` filtered along its columns by `aTaps` and `b` by `bTaps`: the
    /// magnitude of a gradient whose components are never stored whole.
    static func magnitude(_ a: UnsafeSendablePointer<Float>, _ aTaps: [Float], _ b: UnsafeSendablePointer<Float>, _ bTaps: [Float],
                          into target: UnsafeSendablePointer<Float>, width: Int, height: Int) {
        rows(height) { range in
            var rowA = [Float](repeating: 0, count: width), rowB = [Float](repeating: 0, count: width)
            var lines = [UnsafePointer<Float>](repeating: UnsafePointer(a.pointer), count: max(aTaps.count, bTaps.count))
            rowA.withUnsafeMutableBufferPointer { ra in
                rowB.withUnsafeMutableBufferPointer { rb in
                    let pa = ra.baseAddress!, pb = rb.baseAddress!
                    for row in range {
                        column(a, aTaps, row: row, lines: &lines, into: pa, width: width, height: height, accumulate: false)
                        column(b, bTaps, row: row, lines: &lines, into: pb, width: width, height: height, accumulate: false)
                        let o = target.pointer + row * width
                        for i in 0..<width { o[i] = (pa[i] * pa[i] + pb[i] * pb[i]).squareRoot() }
                    }
                }
            }
        }
    }

    /// One output row of a vertical pass, clamp-to-edge; `lines` is scratch for the source rows.
    @inline(__always)
    static func column(_ source: UnsafeSendablePointer<Float>, _ taps: [Float], row: Int, lines: inout [UnsafePointer<Float>],
                       into o: UnsafeMutablePointer<Float>, width: Int, height: Int, accumulate: Bool) {
        let r = taps.count / 2
        for k in 0..<taps.count { lines[k] = UnsafePointer(source.pointer + min(max(row + k - r, 0), height - 1) * width) }
        taps.withUnsafeBufferPointer { t in
            lines.withUnsafeBufferPointer { l in
                var c = 0
                while c + Lanes.scalarCount <= width {
                    var sum = accumulate ? load(o + c) : Lanes()
                    for k in 0..<t.count { sum += t[k] * load(l[k] + c) }
                    store(sum, o + c)
                    c += Lanes.scalarCount
                }
                while c < width {
                    var sum: Float = accumulate ? o[c] : 0
                    for k in 0..<t.count { sum += t[k] * l[k][c] }
                    o[c] = sum
                    c += 1
                }
            }
        }
    }
}
