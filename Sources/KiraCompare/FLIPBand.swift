/// One worker's LDR-ꟻLIP: the errors of a band of rows, from both images' opponent rows through
/// their filters to the per-pixel error in one pass over the band.
///
/// Every filter is separable. A source row's horizontal passes (the three CSFs, of which Cz's has
/// two terms, and the feature detectors' Gaussian, first and second derivative: seven rows an
/// image) go into a ring of `2R + 1` slots, `R` the widest radius; an output row then sums its
/// column of slots vertically into fourteen registers of sixteen lanes and turns them into errors
/// there. So no plane of the image's size is ever stored: whole-image planes cost more in page
/// faults than in arithmetic (56 % of a 1260×1760 comparison's time went to the kernel zeroing
/// their pages, perf, Zen 4).
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
        let count = 2 * radius + 1, rows = Self.rowsPerImage, cmax = FLIP.cmax
        taps.vertical.withUnsafeBufferPointer { t in
            let csfY = t.baseAddress!, csfCx = csfY + count, cz1 = csfCx + count, cz2 = cz1 + count
            let g = cz2 + count, e = g + count, p = e + count
            var c = 0
            while c < width {
                // Per image: Y, Cx, Cz, and the edge and point gradients' x and y components.
                var aY = Lanes(), aX = Lanes(), aZ = Lanes(), aEx = Lanes(), aEy = Lanes(), aPx = Lanes(), aPy = Lanes()
                var bY = Lanes(), bX = Lanes(), bZ = Lanes(), bEx = Lanes(), bEy = Lanes(), bPx = Lanes(), bPy = Lanes()
                for k in 0..<count {
                    let ra = lines[k] + c, rb = ra + rows * stride
                    let ga = load(ra + 4 * stride), gb = load(rb + 4 * stride)
                    aY += csfY[k] * load(ra)
                    aX += csfCx[k] * load(ra + stride)
                    aZ += cz1[k] * load(ra + 2 * stride) + cz2[k] * load(ra + 3 * stride)
                    aEx += g[k] * load(ra + 5 * stride)
                    aEy += e[k] * ga
                    aPx += g[k] * load(ra + 6 * stride)
                    aPy += p[k] * ga
                    bY += csfY[k] * load(rb)
                    bX += csfCx[k] * load(rb + stride)
                    bZ += cz1[k] * load(rb + 2 * stride) + cz2[k] * load(rb + 3 * stride)
                    bEx += g[k] * load(rb + 5 * stride)
                    bEy += e[k] * gb
                    bPx += g[k] * load(rb + 6 * stride)
                    bPy += p[k] * gb
                }
                let error = FLIP.pixelErrors(reference: (aY, aX, aZ), test: (bY, bX, bZ),
                                             edges: (hypot(aEx, aEy), hypot(bEx, bEy)), points: (hypot(aPx, aPy), hypot(bPx, bPy)), cmax: cmax)
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

    @inline(__always)
    private func hypot(_ x: Lanes, _ y: Lanes) -> Lanes { FLIP.squareRoot(x * x + y * y) }

    @inline(__always)
    private func load(_ p: UnsafePointer<Float>) -> Lanes { UnsafeRawPointer(p).loadUnaligned(as: Lanes.self) }

    @inline(__always)
    private func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) { UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self) }
}
