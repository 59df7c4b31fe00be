import KiraImage
import KiraLaneJobs
import KiraShader

/// One worker's three rows of the height field around the row it shades, each row computed once
/// per tile as the rows advance (the rows above and below the tile's ends are clamped to the face,
/// as ``FoilSample/height(_:_:)`` clamps).
struct HeightRing {
    let space: WorkerSpace
    let source: HeightSource?
    /// The face's height.
    let height: Int
    /// The next row to compute (rows outside the face stand for the edge rows).
    private var next: Int

    init(space: WorkerSpace, first: Int, source: HeightSource?, height: Int) {
        self.space = space
        self.source = source
        self.height = height
        next = first - 1
    }

    /// The height rows around row `y` of a face `width` pixels wide; rows must advance by one.
    mutating func advance(to y: Int, width: Int) -> HeightRows {
        while next <= y + 1 {
            fill(row(next), with: min(max(next, 0), height - 1), width: width)
            next += 1
        }
        return HeightRows(above: UnsafePointer(row(y - 1)), center: UnsafePointer(row(y)), below: UnsafePointer(row(y + 1)))
    }

    /// Column 0 of the slot that holds row `y`.
    private func row(_ y: Int) -> UnsafeMutablePointer<Float> {
        space.heightRows + ((y % 3 + 3) % 3) * space.heightFloats + WorkerScratch.heightMargin
    }

    private func fill(_ target: UnsafeMutablePointer<Float>, with y: Int, width: Int) {
        // The channel type as `ChannelDepth.with` picks it (16 bits, otherwise 8), named here: called
        // through that function in another module, the fill ran unspecialised (its loads generic).
        if source!.bits == 16 {
            fill(target, with: y, width: width, UInt16.self)
        } else {
            fill(target, with: y, width: width, UInt8.self)
        }
    }

    /// Row `y`'s luminance, sampled as the mask is (nearest texel), then its margins: the edge
    /// values repeated.
    fileprivate func fill<S: LaneChannel>(_ target: UnsafeMutablePointer<Float>, with y: Int, width: Int, _: S.Type) {
        let source = self.source!
        let pixel = 4 * MemoryLayout<S>.size
        let sourceY = SeedShader.nearestTexel((Float(y) + 0.5) / Float(height), size: source.height)
        var pixels = source.pixels + sourceY * source.width * pixel
        if let columns = source.columns {
            for x in 0..<width {
                (space.sourceRow + x * pixel).copyMemory(from: pixels + Int(columns[x]) * pixel, byteCount: pixel)
            }
            pixels = UnsafeRawPointer(space.sourceRow)
        }
        let lanes = Lanes.scalarCount
        var x = 0
        while x + lanes <= width {
            UnsafeMutableRawPointer(target + x).storeBytes(
                of: HeightField.luminance(S.loadLanes(pixels + x * pixel).rgb), as: Lanes.self)
            x += lanes
        }
        if x < width {
            space.sourceTail.copyMemory(from: pixels + x * pixel, byteCount: (width - x) * pixel)
            UnsafeMutableRawPointer(target + x).storeBytes(
                of: HeightField.luminance(S.loadLanes(space.sourceTail).rgb), as: Lanes.self)
        }
        target[-1] = target[0]
        let end = space.heightFloats - 2 * WorkerScratch.heightMargin + WorkerScratch.heightMargin
        for k in width..<end { target[k] = target[width - 1] }
    }
}
