import KiraGeometry
import KiraLaneJobs
import KiraShader

/// The projection work of one frame, shared by the workers, one pixel at a time: the reference
/// for the kernels' `LaneProjectionJob`.
struct ScalarProjectionJob: @unchecked Sendable {
    /// The faces, the canvas and its tiles.
    let frame: ProjectionFrame
    /// Per worker, a canvas row of premultiplied RGBA floats.
    let scratch: UnsafeMutablePointer<Float>

    func run(tile: Int, worker: Int) {
        ChannelDepth.with(bits: frame.depth, Tile(job: self, tile: tile, worker: worker))
    }

    private struct Tile: ChannelTypeConsumer {
        let job: ScalarProjectionJob, tile: Int, worker: Int
        func callAsFunction<Out: LaneChannel>(_: Out.Type) { job.run(tile: tile, worker: worker, Out.self) }
    }

    fileprivate func run<Out: LaneChannel>(tile: Int, worker: Int, _: Out.Type) {
        let row = scratch + worker * frame.width * 4
        let out = frame.output.assumingMemoryBound(to: Out.self)
        // The background as stored channels, for the pixels no face reaches.
        let plain = frame.storedBackground(Out.self)
        for y in frame.rows(ofTile: tile) {
            // Only the columns some face may touch go through the float row buffer.
            var lower = frame.width, upper = 0
            for projection in frame.projections where projection.rows.contains(y) {
                let span = projection.spans(y: y).covered
                if !span.isEmpty {
                    lower = min(lower, span.lowerBound)
                    upper = max(upper, span.upperBound)
                }
            }
            let outRow = out + y * frame.width * 4
            for x in 0..<frame.width where x < lower || x >= upper {
                (outRow + 4 * x).withMemoryRebound(to: SIMD4<Out>.self, capacity: 1) { $0.pointee = plain }
            }
            guard lower < upper else { continue }
            for x in lower..<upper {
                (row + 4 * x).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = frame.background }
            }
            for (index, projection) in frame.projections.enumerated() where projection.rows.contains(y) {
                draw(projection, face: frame.faces[index].assumingMemoryBound(to: Out.self), row: row, y: y)
            }
            store(row, columns: lower..<upper, into: outRow)
        }
    }

    /// Composites one face over the row buffer (premultiplied RGBA floats).
    ///
    /// The row splits into the pixels wholly inside the quad (coverage 1, the bulk) and the few
    /// that an edge crosses (exact coverage); pixels outside are not visited.
    private func draw<Out: LaneChannel>(_ projection: FaceProjection, face: UnsafePointer<Out>,
                                        row: UnsafeMutablePointer<Float>, y: Int) {
        let spans = projection.spans(y: y)
        // The row's sample points, as the lanes take them: once per row.
        let points = SamplePointMap(inverse: projection.inverse, y: y)
        for x in spans.covered where !spans.inside.contains(x) {
            let coverage = projection.coverage(x: x, y: y)
            if coverage > 0 {
                blend(projection, points: points, face: face, row: row, x: x, y: y, weight: Float(coverage) * projection.opacity)
            }
        }
        for x in spans.inside {
            blend(projection, points: points, face: face, row: row, x: x, y: y, weight: projection.opacity)
        }
    }

    /// Samples the premultiplied face where canvas pixel (`x`, `y`) maps back to (``sample``),
    /// and composites it with `weight` over the row buffer.
    @inline(__always)
    private func blend<Out: LaneChannel>(_ projection: FaceProjection, points: SamplePointMap, face: UnsafePointer<Out>,
                                         row: UnsafeMutablePointer<Float>, x: Int, y: Int, weight: Float) {
        let color = sample(projection, points: points, face: face, x: x, y: y)
        let source = color * weight
        (row + 4 * x).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { dst in
            dst.pointee = source + dst.pointee * (1 - source.w)
        }
    }

    /// The face as canvas pixel (`x`, `y`) sees it: sampled bilinearly at the point its centre
    /// maps back to (`points`, row `y`'s ``SamplePointMap``, in single precision), or, where the
    /// face is drawn smaller than its texels, the mean of the bilinear taps over the pixel's
    /// footprint (``FaceFootprint``, in double precision).
    @inline(__always)
    private func sample<Out: LaneChannel>(_ projection: FaceProjection, points: SamplePointMap, face: UnsafePointer<Out>,
                                          x: Int, y: Int) -> SIMD4<Float> {
        let h = projection.inverse.homogeneous(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        let footprint = FaceFootprint(inverse: projection.inverse, h: h)
        let fw = projection.faceSize.x, fh = projection.faceSize.y
        guard footprint.isMinified else {
            let p = points.point(x: x)
            return bilinear(face, size: projection.faceSize, u: Self.clamp(p.x - 0.5, Float(fw - 1)),
                            v: Self.clamp(p.y - 0.5, Float(fh - 1)))
        }
        var sum = SIMD4<Float>.zero
        for j in 0..<footprint.rows {
            for i in 0..<footprint.columns {
                let p = footprint.tap(i, j)
                sum += bilinear(face, size: projection.faceSize, u: Self.clamp(p.x - 0.5, Double(fw - 1)),
                                v: Self.clamp(p.y - 0.5, Double(fh - 1)))
            }
        }
        return sum / Float(footprint.columns * footprint.rows)
    }

    /// The premultiplied face interpolated bilinearly at (`u`, `v`), in texel-centre coordinates
    /// within the face (`Float` for a pixel's centre, `Double` for a footprint's taps).
    @inline(__always)
    private func bilinear<Out: LaneChannel, Coordinate: BinaryFloatingPoint>(
        _ face: UnsafePointer<Out>, size: SIMD2<Int>, u: Coordinate, v: Coordinate) -> SIMD4<Float> {
        let fw = size.x, fh = size.y
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, fw - 1), y1 = min(y0 + 1, fh - 1)
        let wx = Float(u - Coordinate(x0)), wy = Float(v - Coordinate(y0))
        // The face is premultiplied already (as SwiftUI's layers are): texels are interpolated
        // as stored, so transparent texels carry no colour into their neighbours.
        @inline(__always) func texel(_ tx: Int, _ ty: Int) -> SIMD4<Float> {
            let p = face + (ty * fw + tx) * 4
            return SIMD4(Out.normalized(p[0]), Out.normalized(p[1]), Out.normalized(p[2]), Out.normalized(p[3]))
        }
        let t00 = texel(x0, y0), t01 = texel(x1, y0), t10 = texel(x0, y1), t11 = texel(x1, y1)
        let t = t00 + (t01 - t00) * wx
        let b = t10 + (t11 - t10) * wx
        return t + (b - t) * wy
    }

    /// `x` clamped to `0...high`, NaN to 0 (as the C kernels clamp).
    private static func clamp<Coordinate: BinaryFloatingPoint>(_ x: Coordinate, _ high: Coordinate) -> Coordinate {
        let t = x > 0 ? x : 0
        return t < high ? t : high
    }

    /// Writes `columns` of the row, un-premultiplied, as stored channels.
    private func store<Out: LaneChannel>(_ row: UnsafeMutablePointer<Float>, columns: Range<Int>,
                                         into out: UnsafeMutablePointer<Out>) {
        for x in columns {
            let pixel = UnsafeRawPointer(row + 4 * x).loadUnaligned(as: SIMD4<Float>.self)
            let a = pixel.w
            let scale: Float = a == 1 ? 1 : (a > 0 ? 1 / a : 0)
            let p = out + 4 * x
            p[0] = Out.quantize(pixel.x * scale)
            p[1] = Out.quantize(pixel.y * scale)
            p[2] = Out.quantize(pixel.z * scale)
            p[3] = Out.quantize(a)
        }
    }
}
