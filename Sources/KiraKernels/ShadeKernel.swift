import KiraImage
import KiraLaneJobs
import KiraShader

/// The per-row work of a shade for the foil `F`: everything between the scheduler and the foil's
/// lane functions (reading the art and the mask, the height field, the glare, storing).
struct ShadeKernel<F: FoilShader> {
    let tables: F.Tables
    let frame: FrameBuffers
    /// Per frame, what the foil needs to know about its normal.
    let foilFrames: UnsafePointer<F.Frame>
    /// Per frame, the glare; nil when there is none.
    let glares: UnsafePointer<Glare.Frame>?
    /// The image the height field comes from, when the foil reads one.
    let height: HeightSource?
    let tileRows: Int
    /// Whether the art, the mask and the output have 16-bit channels (else 8-bit).
    let wide: (art: Bool, mask: Bool, output: Bool)

    init(_ task: ShadeTask) {
        tables = unsafeDowncast(task.tables, to: FoilTablesBox<F.Tables>.self).tables
        frame = task.frame
        foilFrames = task.foilFrames.assumingMemoryBound(to: F.Frame.self)
        glares = task.glares
        height = task.height
        tileRows = task.tileRows
        wide = (task.depths.art == 16, task.depths.mask == 16, task.depths.output == 16)
    }

    /// Shades the rows of tile `tile`. The art's and the mask's depths are tested per sixteen
    /// pixels rather than specialised for (four times fewer copies of every foil's loop, which
    /// were most of the renderer's machine code), except in one loop for the common cold frame
    /// (see `shadeRows`); the output's is specialised for, since a test in the loop over frames
    /// made the compiler keep the lanes on the stack.
    func shade(tile: Int, worker: Int) {
        let rows = (tile * tileRows)..<min((tile + 1) * tileRows, frame.height)
        // The glare in a specialisation of its own too: in the same loop, even behind a test, it
        // made the compiler keep the plain loop's lanes on the stack (a kira sweep 8-10%
        // slower, a cold frame 5-7%: perf samples on 2 cores).
        #if arch(wasm32)
        // The browser's module shades 8-bit faces only (KiraWeb): 16-bit copies of every foil's
        // rows would be a third of its code.
        precondition(!wide.output, "WebAssembly builds shade 8-bit faces only")
        if glares == nil { shadeRows(rows, worker, UInt8.self, PlainFinish.self) } else { shadeRows(rows, worker, UInt8.self, GlareFinish.self) }
        #else
        switch (wide.output, glares == nil) {
        case (false, true): shadeRows(rows, worker, UInt8.self, PlainFinish.self)
        case (false, false): shadeRows(rows, worker, UInt8.self, GlareFinish.self)
        case (true, true): shadeRows(rows, worker, UInt16.self, PlainFinish.self)
        case (true, false): shadeRows(rows, worker, UInt16.self, GlareFinish.self)
        }
        #endif
    }

    private func shadeRows<O: LaneChannel, G: Finish>(_ rows: Range<Int>, _ worker: Int, _: O.Type, _: G.Type) {
        let width = frame.width
        let (wideArt, wideMask) = (wide.art, wide.mask)
        let artPixel = wideArt ? 8 : 4
        let maskPixel = wideMask ? 8 : 4
        let outPixel = 4 * MemoryLayout<O>.size
        let frameBytes = width * frame.height * outPixel
        let frames = frame.frames
        let lanes = Lanes.scalarCount
        let space = frame.scratch.space(of: worker)
        let rowOuts = space.rowOuts, tailPointers = space.tailPointers
        for k in 0..<frames { tailPointers[k] = space.tailOuts + k * WorkerScratch.tailBytes }
        let foilFrames = self.foilFrames
        let glares = self.glares
        let size = SIMD2(Float(width), Float(frame.height))
        let premultiplied = frame.premultiplied, intensity = frame.intensity
        var heights = HeightRing(space: space, first: rows.lowerBound, source: height, height: frame.height)

        // Sixteen pixels for every frame: the normal-independent work once, then per frame only
        // what depends on the normal. The depths, the premultiplication and the frame count are
        // arguments so that the common cold frame's loop can pass constants; there (8-bit art,
        // `keepsAlpha`) an 8-bit output takes the art's alpha bytes as they are.
        @inline(__always) func shade16(_ row: F.Tables.Row, _ x: Int, _ y: Int, _ art: UnsafeRawPointer,
                                       _ mask: UnsafeRawPointer, _ heightRows: HeightRows,
                                       _ outs: UnsafeMutablePointer<UnsafeMutableRawPointer>, _ offset: Int,
                                       wideArt: Bool, wideMask: Bool, premultiplied: Bool, frames: Int,
                                       keepsAlpha: Bool) {
            var (layer, alpha) = wideArt ? RGBLanes.loadRGBA16(art) : RGBLanes.loadRGBA8(art)
            if premultiplied { layer = RGBLanes(layer.r * alpha, layer.g * alpha, layer.b * alpha) }
            let mono = (wideMask ? RGBLanes.loadRGBA16(mask) : RGBLanes.loadRGBA8(mask)).rgb
            let input = FoilInput(x: x, y: y, size: size, layer: layer, alpha: alpha, mono: mono,
                                  intensity: intensity, premultiplied: premultiplied, height: heightRows)
            let pixel = F.pixel(input, row: row)
            for k in 0..<frames {
                var colour = F.shade(pixel, input, row: row, frame: foilFrames[k])
                if G.glare, let glares {
                    colour = Glare.apply(colour, coverage: input.coverage, x: input.centresX, y: input.centreY, frame: glares[k])
                }
                if keepsAlpha && O.self == UInt8.self {
                    RGBLanes.storeRGBA8(colour, alphaOf: art.loadUnaligned(as: SIMD16<UInt32>.self), to: outs[k] + offset)
                } else {
                    O.storeLanes(colour, alpha: alpha, to: outs[k] + offset)
                }
            }
        }

        for y in rows {
            let artRow = frame.art + y * width * artPixel
            for k in 0..<frames { rowOuts[k] = frame.output + k * frameBytes + y * width * outPixel }
            let maskY = SeedShader.nearestTexel((Float(y) + 0.5) / Float(frame.height), size: frame.maskHeight)
            var maskRow = frame.mask + maskY * frame.maskWidth * maskPixel
            if let columns = frame.maskColumns {
                // Resample the mask row to the art's width once, then read it like the art.
                for x in 0..<width {
                    (space.maskRow + x * maskPixel).copyMemory(
                        from: maskRow + Int(columns[x]) * maskPixel, byteCount: maskPixel)
                }
                maskRow = UnsafeRawPointer(space.maskRow)
            }
            let heightRows = F.readsHeight ? heights.advance(to: y, width: width) : HeightRows.none
            let row = tables.rowTables(y)

            let full = width - width % lanes
            var x = 0
            if !wideArt && !wideMask && !premultiplied && frames == 1 {
                // The common cold frame (8-bit art and mask, straight colours, one frame) in a loop
                // of its own, where the tests are constants: one block from the loads to the
                // store, so the compiler loads each value where it is used instead of holding all
                // of them, mostly on the stack, across the tests (cold shade at v3 1.08x, Zen 4).
                while x < full {
                    shade16(row, x, y, artRow + x * 4, maskRow + x * 4, heightRows, rowOuts, x * outPixel,
                            wideArt: false, wideMask: false, premultiplied: false, frames: 1, keepsAlpha: true)
                    x += lanes
                }
            } else {
                while x < full {
                    shade16(row, x, y, artRow + x * artPixel, maskRow + x * maskPixel, heightRows, rowOuts, x * outPixel,
                            wideArt: wideArt, wideMask: wideMask, premultiplied: premultiplied, frames: frames,
                            keepsAlpha: false)
                    x += lanes
                }
            }
            // The row's last partial group of pixels, the one place a tail is handled: copied to
            // scratch, shaded as sixteen, and only the real pixels copied back.
            if x < width {
                let count = width - x
                space.tailArt.copyMemory(from: artRow + x * artPixel, byteCount: count * artPixel)
                space.tailMask.copyMemory(from: maskRow + x * maskPixel, byteCount: count * maskPixel)
                shade16(row, x, y, space.tailArt, space.tailMask, heightRows, tailPointers, 0,
                        wideArt: wideArt, wideMask: wideMask, premultiplied: premultiplied, frames: frames,
                        keepsAlpha: false)
                for k in 0..<frames {
                    (rowOuts[k] + x * outPixel).copyMemory(from: tailPointers[k], byteCount: count * outPixel)
                }
            }
        }
    }
}

/// Whether a kernel's rows screen the glare over the shaded colours, as a type (see
/// ``ShadeKernel/shade(tile:worker:)``).
protocol Finish {
    static var glare: Bool { get }
}

enum PlainFinish: Finish {
    static var glare: Bool { false }
}

enum GlareFinish: Finish {
    static var glare: Bool { true }
}
