import CKiraLanes
import CKiraProjection
import KiraGeometry
import KiraLaneJobs
import KiraShader

/// The projection and compositing of one frame, sixteen canvas pixels at a time: the fast path
/// of the frame renderer.
///
/// It performs the scalar projection's operations (the renderer's `ScalarProjectionJob`) in the same order on
/// lanes, so that its frames are the same bytes (the tests hold it to that):
/// - each row is cut into runs once per face: pixels wholly inside the quad (coverage 1), the few
///   that an edge crosses (exact area coverage, computed per pixel as the reference does), and
///   those outside every face, which are filled with the background's stored pixel;
/// - within a run of sixteen pixels, the C kernels of `kira_projection.h` (module CKiraProjection) map the pixels back
///   onto each face (the inverse homography in single precision, ``SamplePointMap``: a product
///   with the column, the row's terms computed once per row, one division per lane and
///   coordinate), fetch the four texels
///   of each bilinear sample, and composite premultiplied over the background in registers; on a
///   row where a face may be minified (``FaceProjection/mayMinify(y:columns:)``), the lanes whose pixel
///   spans more than 1.5 texels average their footprint's taps instead (``FaceFootprint``);
/// - the run is then stored un-premultiplied. Where one face alone reaches a row, the runs wholly
///   inside it (the bulk of a frame) go through one C loop, `kira_project_inside_rgba8`, two
///   runs a step: 8% less CPU per frame than a call per run, measured.
struct LaneProjectionJob: @unchecked Sendable {
    /// The faces, the canvas and its tiles.
    let frame: ProjectionFrame

    func run(tile: Int) {
        // The channel type as `ChannelDepth.with` picks it (16 bits, otherwise 8), named here: called
        // through that function in another module, this ran unspecialised (its stores and fills
        // generic). Specialised: the v4 frame 9-12 % less CPU (2-core EPYC Zen 4).
        #if arch(wasm32)
        // The browser's module draws 8-bit frames only (KiraWeb): 16-bit copies of the kernels
        // would be a third of its code.
        precondition(frame.depth == 8, "WebAssembly builds draw 8-bit frames only")
        run(tile: tile, UInt8.self)
        #else
        if frame.depth == 16 {
            run(tile: tile, UInt16.self)
        } else {
            run(tile: tile, UInt8.self)
        }
        #endif
    }

    /// A face's share of one row: where it touches, where it covers whole pixels, and the row's
    /// terms of the inverse homography.
    private struct RowSpan {
        var covered: Range<Int>
        var inside: Range<Int>
        /// The inverse map on this row.
        var map: kira_row_map
        /// Whether a pixel of the row may see the face minified (``FaceProjection/mayMinify(y:columns:)``).
        var filtered = false
    }

    fileprivate func run<Out: LaneChannel>(tile: Int, _: Out.Type) {
        let out = frame.output.assumingMemoryBound(to: Out.self)
        // The background as stored channels, for the pixels no face reaches.
        let plain = frame.storedBackground(Out.self)
        withUnsafeTemporaryAllocation(of: RowSpan.self, capacity: frame.projections.count) { spans in
            for y in frame.rows(ofTile: tile) {
                var lower = frame.width, upper = 0
                for (k, projection) in frame.projections.enumerated() {
                    var span = RowSpan(covered: 0..<0, inside: 0..<0, map: Self.rowMap(projection.inverse, y: y))
                    if projection.rows.contains(y) {
                        (span.covered, span.inside) = projection.spans(y: y)
                        span.filtered = projection.mayMinify(y: y, columns: span.covered)
                        if !span.covered.isEmpty {
                            lower = min(lower, span.covered.lowerBound)
                            upper = max(upper, span.covered.upperBound)
                        }
                    }
                    spans[k] = span
                }
                let outRow = out + y * frame.width * 4
                guard lower < upper else {
                    fill(outRow, count: frame.width, with: plain)
                    continue
                }
                fill(outRow, count: lower, with: plain)
                fill(outRow + 4 * upper, count: frame.width - upper, with: plain)
                guard frame.width >= 16 else {
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
                // Where only one face reaches this row, its interior runs go through one C loop.
                let single = Out.self == UInt8.self ? Self.onlyFace(UnsafeBufferPointer(spans)) : nil
                while x < upper {
                    if let k = single, !spans[k].filtered, x >= spans[k].inside.lowerBound, x + 16 <= spans[k].inside.upperBound {
                        let runs = (spans[k].inside.upperBound - x) / 16
                        kira_project_inside_rgba8(rgba8Face(k), spans[k].map, Int32(x), runs, frame.projections[k].opacity,
                                                  frame.background,
                                                  UnsafeMutableRawPointer(outRow + 4 * x).assumingMemoryBound(to: UInt32.self))
                        x += 16 * runs
                        continue
                    }
                    if x + 16 <= frame.width {
                        composite(y: y, x: x, spans: UnsafeBufferPointer(spans), into: outRow,
                                  streaming: Out.self == UInt8.self, as: Out.self)
                    } else {
                        composite(y: y, x: frame.width - 16, spans: UnsafeBufferPointer(spans), into: outRow,
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
        // Sixteen premultiplied pixels as four lanes r, g, b, a: the form the C kernels take.
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 64) { rgba in
            let pixels = PixelLanes(floats: rgba.baseAddress!)
            for c in 0..<4 { pixels[c] = Lanes(repeating: frame.background[c]) }
            let columns = SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: x)) &+ Self.laneIndex
            for (k, projection) in frame.projections.enumerated() {
                let span = spans[k]
                guard let weight = weight(projection, span: span, y: y, x: x, columns: columns) else { continue }
                // Where the face may be drawn smaller than its texels, it is filtered.
                if Out.self == UInt8.self {
                    if span.filtered {
                        kira_sample_filtered_rgba8(rgba8Face(k), span.map, columns, weight, pixels.floats)
                    } else {
                        kira_sample_over_rgba8(rgba8Face(k), span.map, columns, weight, pixels.floats)
                    }
                } else {
                    let face = kira_face_rgba16(texels: frame.faces[k].assumingMemoryBound(to: UInt16.self),
                                                width: Int32(projection.faceSize.x), height: Int32(projection.faceSize.y))
                    if span.filtered {
                        kira_sample_filtered_rgba16(face, span.map, columns, weight, pixels.floats)
                    } else {
                        kira_sample_over_rgba16(face, span.map, columns, weight, pixels.floats)
                    }
                }
            }
            store(pixels, into: outRow + 4 * x, fits: x + 16 <= frame.width, count: frame.width - x, streaming: streaming)
        }
    }

    /// Face `k` as the C kernels take an RGBA8 face.
    @inline(__always)
    private func rgba8Face(_ k: Int) -> kira_face_rgba8 {
        kira_face_rgba8(texels: frame.faces[k].assumingMemoryBound(to: UInt32.self),
                        width: Int32(frame.projections[k].faceSize.x), height: Int32(frame.projections[k].faceSize.y))
    }

    /// The face whose span on this row is the only one not empty, if there is exactly one.
    private static func onlyFace(_ spans: UnsafeBufferPointer<RowSpan>) -> Int? {
        var only: Int?
        for k in spans.indices where !spans[k].covered.isEmpty {
            if only != nil { return nil }
            only = k
        }
        return only
    }

    /// Stores the premultiplied pixels `rgba` un-premultiplied at `target`: sixteen when they
    /// `fit`, else the first `count` (a canvas narrower than sixteen pixels).
    @inline(__always)
    private func store<Out: LaneChannel>(_ rgba: PixelLanes, into target: UnsafeMutablePointer<Out>,
                                         fits: Bool, count: Int, streaming: Bool) {
        if Out.self == UInt8.self, fits {
            let words = kira_pack_rgba8(rgba.floats)
            if streaming {
                // Sixteen RGBA8 pixels are one aligned 64-byte line.
                kira_stream_64(UnsafeMutableRawPointer(target), words)
            } else {
                UnsafeMutableRawPointer(target).storeBytes(of: words, as: SIMD16<UInt32>.self)
            }
            return
        }
        // Un-premultiply: opaque pixels as they are, transparent ones black.
        let scale = kira_unpremultiply_scale(rgba[3])
        let rgb = RGBLanes(rgba[0] * scale, rgba[1] * scale, rgba[2] * scale)
        if fits {
            Out.storeLanes(rgb, alpha: rgba[3], to: UnsafeMutableRawPointer(target))
        } else {
            withUnsafeTemporaryAllocation(of: Out.self, capacity: 64) { buffer in
                Out.storeLanes(rgb, alpha: rgba[3], to: UnsafeMutableRawPointer(buffer.baseAddress!))
                target.update(from: buffer.baseAddress!, count: 4 * count)
            }
        }
    }

    /// How much of each of the sixteen pixels from `x` the face covers, times its opacity; nil
    /// when it covers none of them.
    @inline(__always)
    private func weight(_ projection: FaceProjection, span: RowSpan, y: Int, x: Int, columns: SIMD16<Int32>) -> Lanes? {
        guard span.covered.lowerBound < x + 16, span.covered.upperBound > x else { return nil }
        if span.inside.lowerBound <= x, x + 16 <= span.inside.upperBound {
            return Lanes(repeating: projection.opacity)
        }
        var w = kira_where_in_range(columns, Int32(span.inside.lowerBound), Int32(span.inside.upperBound),
                                    projection.opacity)
        // The pixels an edge crosses: their exact coverage, as the reference computes it.
        for px in max(x, span.covered.lowerBound)..<min(x + 16, span.covered.upperBound)
        where !span.inside.contains(px) {
            let coverage = projection.coverage(x: px, y: y)
            if coverage > 0 { w[px - x] = Float(coverage) * projection.opacity }
        }
        return w == .zero ? nil : w
    }

    /// The inverse homography `inverse` on row `y`: in double precision for the footprints, in
    /// single precision for the sample points (``SamplePointMap``).
    private static func rowMap(_ inverse: Homography, y: Int) -> kira_row_map {
        let m = inverse.rows, row = m.1 * (Double(y) + 0.5)
        let point = SamplePointMap(inverse: inverse, y: y)
        return kira_row_map(column_x: m.0.x, column_y: m.0.y, column_z: m.0.z, row_x: row.x, row_y: row.y, row_z: row.z,
                            constant_x: m.2.x, constant_y: m.2.y, constant_z: m.2.z, step_x: m.1.x, step_y: m.1.y, step_z: m.1.z,
                            point_column_x: point.column.x, point_column_y: point.column.y, point_column_z: point.column.z,
                            point_origin_x: point.origin.x, point_origin_y: point.origin.y, point_origin_z: point.origin.z)
    }

    private static let laneIndex = SIMD16<Int32>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

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

/// Sixteen premultiplied RGBA pixels stored as 64 floats, lanes r, g, b, a (the C kernels' form).
private struct PixelLanes {
    let floats: UnsafeMutablePointer<Float>

    /// Channel `c`'s lanes.
    subscript(c: Int) -> Lanes {
        @inline(__always) get { UnsafeRawPointer(floats + 16 * c).loadUnaligned(as: Lanes.self) }
        @inline(__always) nonmutating set { UnsafeMutableRawPointer(floats + 16 * c).storeBytes(of: newValue, as: Lanes.self) }
    }
}
