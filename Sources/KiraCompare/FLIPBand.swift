/// One worker's LDR-ꟻLIP: the errors of a band of rows, from both images' opponent rows through
/// their filters to the per-pixel error in one pass over the band.
///
/// Every filter is separable. A source row's horizontal passes (the three CSFs, of which Cz's has
/// two terms, and the feature detectors' Gaussian, first and second derivative: seven rows an
/// image) go into a ring of `2R + 1` slots, `R` the widest radius; an output row then sums its
/// column of slots vertically into fourteen registers of sixteen lanes and turns them into errors
/// there. So no plane of the image's size is ever stored: for a 1260×1760 pair the whole-image
/// planes peaked at 175 MB against 54 MB, and the kernel zeroing their pages took from a tenth to
/// half of the CPU time (perf, Zen 4, a shared machine).
///
/// Rows are padded to whole blocks of lanes with their edge pixels, and coordinates clamped to the
/// image, so the sums need no bounds checks; all taps are padded with zeros to `2R + 1`.
struct FLIPBand {
    typealias Lanes = FLIP.Lanes

    /// The horizontal rows an image keeps per slot: Y's CSF, Cx's, Cz's two terms, and the
    /// Gaussian, edge and point detectors of Y.
    static let rowsPerImage = 7

    let width: Int, height: Int, radius: Int
    /// Floats in a stored row: the width rounded up to whole blocks of lanes.
    let stride: Int
    let taps: FLIPBandTaps
    let reference: FLIPOpponent, test: FLIPOpponent

    init(width: Int, height: Int, taps: FLIPBandTaps, reference: FLIPOpponent, test: FLIPOpponent) {
        self.width = width
        self.height = height
        radius = taps.radius
        stride = (width + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
        self.taps = taps
        self.reference = reference
        self.test = test
    }

    /// How many bands `height` rows are split into: a band recomputes the 2R rows around it, so
    /// bands of at least 8 (2R + 1) rows keep that under an eighth of the horizontal work.
    static func bands(height: Int, radius: Int) -> Int { max(1, min(64, height / (8 * (2 * radius + 1)))) }

    /// The memory a band's worker allocates: its ring and one padded row of Y, Cx and Cz.
    static func workingBytes(width: Int, radius: Int) -> Int {
        let stride = (width + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
        return 4 * ((2 * radius + 1) * 2 * rowsPerImage * stride + 3 * (stride + 2 * radius))
    }

    /// The errors of rows `rows`, written to `output` (row-major, `width` a row).
    func errors(_ rows: Range<Int>, into output: UnsafeMutablePointer<Float>) {
        let slots = 2 * radius + 1, slotFloats = 2 * Self.rowsPerImage * stride
        let padded = stride + 2 * radius
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: slots * slotFloats)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 3 * padded)
        defer { ring.deallocate(); scratch.deallocate() }
        // Unclamped row u lives in slot (u + slots) % slots (u ≥ −R).
        func fill(_ u: Int) {
            let slot = ring + (u + slots) % slots * slotFloats
            let source = min(max(u, 0), height - 1)
            reference.row(source, into: scratch, padded: padded, radius: radius)
            horizontal(scratch, padded: padded, into: slot)
            test.row(source, into: scratch, padded: padded, radius: radius)
            horizontal(scratch, padded: padded, into: slot + Self.rowsPerImage * stride)
        }
        for u in (rows.lowerBound - radius)..<(rows.lowerBound + radius) { fill(u) }
        var lines = [UnsafePointer<Float>](repeating: UnsafePointer(ring), count: slots)
        for y in rows {
            fill(y + radius)
            for k in 0..<slots { lines[k] = UnsafePointer(ring + (y - radius + k + slots) % slots * slotFloats) }
            lines.withUnsafeBufferPointer { vertical($0.baseAddress!, row: output + y * width) }
        }
    }

    /// A row's seven horizontal passes from its padded Y, Cx and Cz (`padded` floats each, `R`
    /// edge pixels before the row), into seven stored rows.
    @inline(__always)
    private func horizontal(_ source: UnsafeMutablePointer<Float>, padded: Int, into target: UnsafeMutablePointer<Float>) {
        let y = UnsafePointer(source), cx = y + padded, cz = cx + padded
        let count = 2 * radius + 1
        taps.horizontal.withUnsafeBufferPointer { t in
            let csfY = t.baseAddress!, csfCx = csfY + count, cz1 = csfCx + count, cz2 = cz1 + count
            let g = cz2 + count, e = g + count, p = e + count
            var c = 0
            while c < stride {
                var sY = Lanes(), sCx = Lanes(), sCz1 = Lanes(), sCz2 = Lanes(), sG = Lanes(), sE = Lanes(), sP = Lanes()
                for k in 0..<count {
                    let vy = load(y + c + k), vx = load(cx + c + k), vz = load(cz + c + k)
                    sY += csfY[k] * vy
                    sG += g[k] * vy
                    sE += e[k] * vy
                    sP += p[k] * vy
                    sCx += csfCx[k] * vx
                    sCz1 += cz1[k] * vz
                    sCz2 += cz2[k] * vz
                }
                store(sY, target + c)
                store(sCx, target + stride + c)
                store(sCz1, target + 2 * stride + c)
                store(sCz2, target + 3 * stride + c)
                store(sG, target + 4 * stride + c)
                store(sE, target + 5 * stride + c)
                store(sP, target + 6 * stride + c)
                c += Lanes.scalarCount
            }
        }
    }

    /// An output row from the slots of its vertical window (`lines[k]` the slot of row `y − R + k`).
    @inline(__always)
    private func vertical(_ lines: UnsafePointer<UnsafePointer<Float>>, row output: UnsafeMutablePointer<Float>) {
        let cmax = FLIP.cmax
        taps.vertical.withUnsafeBufferPointer { t in
            var c = 0
            while c < width {
                let a = column(lines, image: 0, at: c, taps: t.baseAddress!), b = column(lines, image: 1, at: c, taps: t.baseAddress!)
                let error = FLIP.pixelErrors(reference: a.colour, test: b.colour, edges: (a.edge, b.edge), points: (a.point, b.point), cmax: cmax)
                let lanes = min(Lanes.scalarCount, width - c)
                if lanes == Lanes.scalarCount {
                    store(error, output + c)
                } else {
                    for i in 0..<lanes { output[c + i] = error[i] }
                }
                c += Lanes.scalarCount
            }
        }
    }

    /// One image's vertical sums for sixteen columns from `c`: its filtered Y, Cx and Cz, and its
    /// edge and point gradient magnitudes.
    @inline(__always)
    private func column(_ lines: UnsafePointer<UnsafePointer<Float>>, image: Int, at c: Int, taps t: UnsafePointer<Float>)
        -> (colour: (Lanes, Lanes, Lanes), edge: Lanes, point: Lanes) {
        let count = 2 * radius + 1, offset = image * Self.rowsPerImage * stride + c
        let csfY = t, csfCx = csfY + count, cz1 = csfCx + count, cz2 = cz1 + count
        let g = cz2 + count, e = g + count, p = e + count
        var y = Lanes(), x = Lanes(), z = Lanes(), ex = Lanes(), ey = Lanes(), px = Lanes(), py = Lanes()
        for k in 0..<count {
            let r = lines[k] + offset, gaussian = load(r + 4 * stride)
            y += csfY[k] * load(r)
            x += csfCx[k] * load(r + stride)
            z += cz1[k] * load(r + 2 * stride) + cz2[k] * load(r + 3 * stride)
            ex += g[k] * load(r + 5 * stride)
            ey += e[k] * gaussian
            px += g[k] * load(r + 6 * stride)
            py += p[k] * gaussian
        }
        return ((y, x, z), hypot(ex, ey), hypot(px, py))
    }

    @inline(__always)
    private func hypot(_ x: Lanes, _ y: Lanes) -> Lanes { FLIP.squareRoot(x * x + y * y) }

    @inline(__always)
    private func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }

    @inline(__always)
    private func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self) }
}
