import CKiraLanes
import KiraShader

/// Sixteen canvas positions in double precision: the inverse homography is evaluated in doubles,
/// as the scalar projection does.
typealias DoubleLanes = SIMD16<Double>

/// The projection and compositing of one frame, sixteen canvas pixels at a time: the fast path
/// of ``FrameRenderer``.
///
/// It performs the scalar projection's operations (``ScalarProjectionJob``) in the same order on
/// lanes, so that its frames are the same bytes (the tests hold it to that):
/// - each row is cut into runs once per face: pixels wholly inside the quad (coverage 1), the few
///   that an edge crosses (exact area coverage, computed per pixel as the reference does), and
///   those outside every face, which are filled with the background's stored pixel;
/// - within a run of sixteen pixels the inverse homography is a product with the column
///   (the row's terms are computed once), one division per lane and coordinate, and the four
///   texels of the bilinear fetch are gathered;
/// - faces are composited premultiplied over the background in registers, then stored
///   un-premultiplied.
struct LaneProjectionJob: @unchecked Sendable {
    let projections: [FaceProjection]
    /// The shaded face of each projection, and the canvas, with channels of `depth` bits.
    let faces: UnsafePointer<UnsafeRawPointer>
    let output: UnsafeMutableRawPointer
    let depth: Int
    let width: Int
    let height: Int
    let tileRows: Int
    let background: SIMD4<Float>

    /// Whether every face is small enough for 32-bit texel indices (lanes of `Int32`).
    static func canProject(_ projections: [FaceProjection]) -> Bool {
        projections.allSatisfy { $0.faceSize.x * $0.faceSize.y < Int(Int32.max) }
    }

    func run(tile: Int) {
        ChannelDepth.with(bits: depth, Tile(job: self, tile: tile))
    }

    private struct Tile: ChannelTypeConsumer {
        let job: LaneProjectionJob, tile: Int
        func callAsFunction<Out: LaneChannel>(_: Out.Type) { job.run(tile: tile, Out.self) }
    }

    /// A face's share of one row: where it touches, where it covers whole pixels, and the row's
    /// terms of the inverse homography.
    private struct RowSpan {
        var covered: Range<Int>
        var inside: Range<Int>
        /// `rows.1 * (y + 0.5)` of the inverse map.
        var rowTerm: SIMD3<Double>
    }

    fileprivate func run<Out: LaneChannel>(tile: Int, _: Out.Type) {
        let out = output.assumingMemoryBound(to: Out.self)
        // The background as stored channels, for the pixels no face reaches (the same bytes as
        // the lanes' store gives for the background alone).
        let scale: Float = background.w > 0 ? 1 / background.w : 0
        let plain = SIMD4(Out.quantize(background.x * scale), Out.quantize(background.y * scale),
                          Out.quantize(background.z * scale), Out.quantize(background.w))
        withUnsafeTemporaryAllocation(of: RowSpan.self, capacity: projections.count) { spans in
            for y in (tile * tileRows)..<min((tile + 1) * tileRows, height) {
                var lower = width, upper = 0
                let cy = Double(y) + 0.5
                for (k, projection) in projections.enumerated() {
                    var span = RowSpan(covered: 0..<0, inside: 0..<0, rowTerm: projection.inverse.rows.1 * cy)
                    if projection.rows.contains(y) {
                        (span.covered, span.inside) = projection.spans(y: y)
                        if !span.covered.isEmpty {
                            lower = min(lower, span.covered.lowerBound)
                            upper = max(upper, span.covered.upperBound)
                        }
                    }
                    spans[k] = span
                }
                let outRow = out + y * width * 4
                guard lower < upper else {
                    fill(outRow, count: width, with: plain)
                    continue
                }
                fill(outRow, count: lower, with: plain)
                fill(outRow + 4 * upper, count: width - upper, with: plain)
                guard width >= 16 else {
                    composite(y: y, x: 0, spans: UnsafeBufferPointer(spans), into: outRow, streaming: false, as: Out.self)
                    continue
                }
                // Runs of sixteen pixels. RGBA8 runs sit on the canvas's 64-byte lines, so that each
                // is one whole line, streamed past the caches; a run that would not fit (at the
                // row's ends) moves inwards and is stored normally (recomputing a few pixels
                // gives the same bytes).
                let grid = Out.self == UInt8.self ? ((64 - Int(bitPattern: outRow) & 63) & 63) / 4 : lower % 16
                var x = lower - ((lower - grid) % 16 + 16) % 16
                if x < 0 {
                    composite(y: y, x: 0, spans: UnsafeBufferPointer(spans), into: outRow, streaming: false, as: Out.self)
                    x += 16
                }
                while x < upper {
                    if x + 16 <= width {
                        composite(y: y, x: x, spans: UnsafeBufferPointer(spans), into: outRow,
                                  streaming: Out.self == UInt8.self, as: Out.self)
                    } else {
                        composite(y: y, x: width - 16, spans: UnsafeBufferPointer(spans), into: outRow,
                                  streaming: false, as: Out.self)
                    }
                    x += 16
                }
            }
        }
        kira_store_fence()
    }

    /// Composites the faces over the background for canvas pixels `x..<x + 16` of row `y` and
    /// stores them (only those inside the canvas).
    @inline(__always)
    private func composite<Out: LaneChannel>(y: Int, x: Int, spans: UnsafeBufferPointer<RowSpan>,
                                             into outRow: UnsafeMutablePointer<Out>, streaming: Bool, as: Out.Type) {
        var r = Lanes(repeating: background.x), g = Lanes(repeating: background.y)
        var b = Lanes(repeating: background.z), a = Lanes(repeating: background.w)
        let columns = SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: x)) &+ Self.laneIndex
        for (k, projection) in projections.enumerated() {
            let span = spans[k]
            guard span.covered.lowerBound < x + 16, span.covered.upperBound > x else { continue }
            let weight: Lanes
            if span.inside.lowerBound <= x, x + 16 <= span.inside.upperBound {
                weight = Lanes(repeating: projection.opacity)
            } else {
                var w = kira_where_in_range(columns, Int32(span.inside.lowerBound), Int32(span.inside.upperBound),
                                            projection.opacity)
                // The pixels an edge crosses: their exact coverage, as the reference computes it.
                for px in max(x, span.covered.lowerBound)..<min(x + 16, span.covered.upperBound)
                where !span.inside.contains(px) {
                    let coverage = projection.coverage(x: px, y: y)
                    if coverage > 0 { w[px - x] = Float(coverage) * projection.opacity }
                }
                if w == .zero { continue }
                weight = w
            }
            let color = sample(projection, rowTerm: span.rowTerm, columns: columns, weight: weight,
                               face: faces[k].assumingMemoryBound(to: Out.self))
            // `source + destination * (1 - source alpha)`; a zero weight leaves the lane as it was.
            let sr = color.r * weight, sg = color.g * weight, sb = color.b * weight, sa = color.a * weight
            let keep = 1 - sa
            r = sr + r * keep
            g = sg + g * keep
            b = sb + b * keep
            a = sa + a * keep
        }
        // Un-premultiply: opaque pixels as they are, transparent ones black.
        if a != Lanes(repeating: 1) {
            let scale = kira_unpremultiply_scale(a)
            r *= scale
            g *= scale
            b *= scale
        }
        let target = outRow + 4 * x
        if streaming {
            // RGBA8 only: sixteen pixels are one aligned 64-byte line.
            withUnsafeTemporaryAllocation(of: SIMD16<UInt32>.self, capacity: 1) { line in
                Out.storeLanes(RGBLanes(r, g, b), alpha: a, to: UnsafeMutableRawPointer(line.baseAddress!))
                kira_stream_64(UnsafeMutableRawPointer(target), line[0])
            }
        } else if x + 16 <= width {
            Out.storeLanes(RGBLanes(r, g, b), alpha: a, to: UnsafeMutableRawPointer(target))
        } else {
            // A canvas narrower than sixteen pixels.
            withUnsafeTemporaryAllocation(of: Out.self, capacity: 64) { buffer in
                Out.storeLanes(RGBLanes(r, g, b), alpha: a, to: UnsafeMutableRawPointer(buffer.baseAddress!))
                target.update(from: buffer.baseAddress!, count: 4 * (width - x))
            }
        }
    }

    private static let laneIndex = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

    /// The premultiplied face sampled bilinearly (clamped to its edge texels) where the canvas
    /// pixels `columns` of the row map back to: the scalar `blend`'s arithmetic on lanes.
    @inline(__always)
    private func sample<Out: LaneChannel>(_ projection: FaceProjection, rowTerm: SIMD3<Double>,
                                          columns: SIMD16<Int32>, weight: Lanes, face: UnsafePointer<Out>)
        -> (r: Lanes, g: Lanes, b: Lanes, a: Lanes) {
        let m = projection.inverse.rows
        let fw = Int32(projection.faceSize.x), fh = Int32(projection.faceSize.y)
        let cx = DoubleLanes(kira_i16_to_d16(columns)) + 0.5
        // `rows.0 * x + rows.1 * y + rows.2`, summed in that order.
        let hx = (m.0.x * cx + rowTerm.x) + m.2.x
        let hy = (m.0.y * cx + rowTerm.y) + m.2.y
        let hz = (m.0.z * cx + rowTerm.z) + m.2.z
        // Clamped to the face; lanes outside the quad (no weight) may be anything, NaN included,
        // and are clamped into the face too.
        let u = kira_clamp_d16(hx / hz - 0.5, Double(fw - 1)), v = kira_clamp_d16(hy / hz - 0.5, Double(fh - 1))
        let u0 = kira_d16_truncate(u), v0 = kira_d16_truncate(v)
        let wx = kira_d16_to_f16(u - kira_i16_to_d16(u0)), wy = kira_d16_to_f16(v - kira_i16_to_d16(v0))
        // Lanes without weight (outside the quad) read next to those with weight, so that the
        // run's texels stay in one small window.
        let x0 = kira_spread_weighted_i32(u0, weight), y0 = kira_spread_weighted_i32(v0, weight)
        let x1 = kira_min_i32(x0 &+ 1, fw - 1), y1 = kira_min_i32(y0 &+ 1, fh - 1)
        @inline(__always) func bilinear(_ c00: Lanes, _ c01: Lanes, _ c10: Lanes, _ c11: Lanes) -> Lanes {
            let t = c00 + (c01 - c00) * wx
            let b = c10 + (c11 - c10) * wx
            return t + (b - t) * wy
        }
        let t00, t01, t10, t11: (r: Lanes, g: Lanes, b: Lanes, a: Lanes)
        if Out.self == UInt8.self {
            let words = Self.texelWords(UnsafeRawPointer(face).assumingMemoryBound(to: UInt32.self),
                                        x0: x0, x1: x1, y0: y0, y1: y1, width: fw)
            (t00, t01, t10, t11) = (Self.lanes(words.0), Self.lanes(words.1), Self.lanes(words.2), Self.lanes(words.3))
        } else {
            let top = y0 &* fw, bottom = y1 &* fw
            (t00, t01, t10, t11) = (texels(face, top &+ x0), texels(face, top &+ x1),
                                    texels(face, bottom &+ x0), texels(face, bottom &+ x1))
        }
        return (bilinear(t00.r, t01.r, t10.r, t11.r), bilinear(t00.g, t01.g, t10.g, t11.g),
                bilinear(t00.b, t01.b, t10.b, t11.b), bilinear(t00.a, t01.a, t10.a, t11.a))
    }

    /// The RGBA8 texels at (`x0`, `y0`), (`x1`, `y0`), (`x0`, `y1`), (`x1`, `y1`) of a face
    /// `width` texels wide, as 32-bit words.
    ///
    /// Sixteen neighbouring canvas pixels usually read from a window of at most 32 texels on at
    /// most five face rows (a canvas row maps to a straight line on the face): those are loaded whole and the texels picked from them by permutes,
    /// which costs far less than four gathers. Other runs (a face drawn much smaller than it
    /// is) gather.
    @inline(__always)
    private static func texelWords(_ face: UnsafePointer<UInt32>, x0: SIMD16<Int32>, x1: SIMD16<Int32>,
                                   y0: SIMD16<Int32>, y1: SIMD16<Int32>, width: Int32)
        -> (SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>) {
        let xMin = kira_reduce_min_i32(x0), xMax = kira_reduce_max_i32(x1)
        let yMin = kira_reduce_min_i32(y0), yMax = kira_reduce_max_i32(y1)
        let start = min(xMin, width - 32)
        guard xMax - start < 32, yMax - yMin < 5, start >= 0 else {
            return gatherTexelWords(face, x0: x0, x1: x1, y0: y0, y1: y1, width: width)
        }
        return withUnsafeTemporaryAllocation(of: SIMD16<UInt32>.self, capacity: 4) { words in
            kira_window_texels(face + Int(yMin) * Int(width) + Int(start), Int(width), yMax - yMin + 1,
                               x0 &- start, x1 &- start, y0 &- yMin, y1 &- yMin,
                               UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt32.self))
            return (words[0], words[1], words[2], words[3])
        }
    }

    /// What ``texelWords(_:x0:x1:y0:y1:width:)`` gives, by four gathers. Never inlined: the
    /// compiler would otherwise hoist the gathers out of their branch and run them for every run.
    @inline(never)
    private static func gatherTexelWords(_ face: UnsafePointer<UInt32>, x0: SIMD16<Int32>, x1: SIMD16<Int32>,
                                         y0: SIMD16<Int32>, y1: SIMD16<Int32>, width: Int32)
        -> (SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>, SIMD16<UInt32>) {
        let top = y0 &* width, bottom = y1 &* width
        return (kira_gather_u32(face, top &+ x0), kira_gather_u32(face, top &+ x1),
                kira_gather_u32(face, bottom &+ x0), kira_gather_u32(face, bottom &+ x1))
    }

    /// RGBA8 words as channel lanes in 0...1.
    @inline(__always)
    private static func lanes(_ words: SIMD16<UInt32>) -> (r: Lanes, g: Lanes, b: Lanes, a: Lanes) {
        @inline(__always) func channel(_ shift: UInt32) -> Lanes {
            Lanes(exactly: (words &>> shift) & 0xFF) * (1 / Float(255))
        }
        return (channel(0), channel(8), channel(16), channel(24))
    }

    /// The texels at `index` (in pixels) as channel lanes.
    @inline(__always)
    private func texels<Out: LaneChannel>(_ face: UnsafePointer<Out>, _ index: SIMD16<Int32>)
        -> (r: Lanes, g: Lanes, b: Lanes, a: Lanes) {
        var r = Lanes.zero, g = Lanes.zero, b = Lanes.zero, a = Lanes.zero
        for lane in 0..<16 {
            let p = face + Int(index[lane]) * 4
            r[lane] = Out.normalized(p[0])
            g[lane] = Out.normalized(p[1])
            b[lane] = Out.normalized(p[2])
            a[lane] = Out.normalized(p[3])
        }
        return (r, g, b, a)
    }

    /// Sets `count` pixels from `p` on to `pixel` (RGBA8 pixels streamed past the caches).
    @inline(__always)
    private func fill<Out: LaneChannel>(_ p: UnsafeMutablePointer<Out>, count: Int, with pixel: SIMD4<Out>) {
        guard count > 0 else { return }
        if Out.self == UInt8.self {
            kira_fill_stream_u32(UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt32.self), count,
                                 unsafeBitCast(pixel, to: UInt32.self))
            return
        }
        UnsafeMutableRawPointer(p).withMemoryRebound(to: SIMD4<Out>.self, capacity: count) { pixels in
            pixels.update(repeating: pixel, count: count)
        }
    }
}
