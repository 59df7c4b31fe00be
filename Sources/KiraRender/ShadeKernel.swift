import KiraImage
import KiraShader

/// The per-row work of ``ShadeRenderer`` for the foil `F`: everything between the scheduler and
/// the foil's lane functions (reading the art and the mask, the height field, the glare, storing).
struct ShadeKernel<F: FoilShader>: @unchecked Sendable {
    let tables: F.Tables
    let frame: FrameBuffers
    /// Per frame, what the foil needs to know about its normal.
    let foilFrames: UnsafeBufferPointer<F.Frame>
    /// Per frame, the glare; nil when there is none.
    let glares: UnsafeBufferPointer<Glare.Frame>?
    /// The image the height field comes from, when the foil reads one.
    let height: HeightSource?
    let tileRows: Int
    /// Bits per channel of the art, the mask and the output.
    let depths: (art: Int, mask: Int, output: Int)

    /// Shades the rows of tile `tile` with code specialised for the three channel types, so that
    /// the inner loop has no generic or existential calls.
    func shade(tile: Int, worker: Int) {
        let rows = (tile * tileRows)..<min((tile + 1) * tileRows, frame.height)
        ChannelDepth.with(bits: depths.art, ArtChannel(kernel: self, rows: rows, worker: worker))
    }

    // The art's, the mask's and the output's channel types, one after the other.
    private struct ArtChannel: ChannelTypeConsumer {
        let kernel: ShadeKernel, rows: Range<Int>, worker: Int
        func callAsFunction<I: LaneChannel>(_: I.Type) {
            ChannelDepth.with(bits: kernel.depths.mask, MaskChannel<I>(kernel: kernel, rows: rows, worker: worker))
        }
    }

    private struct MaskChannel<I: LaneChannel>: ChannelTypeConsumer {
        let kernel: ShadeKernel, rows: Range<Int>, worker: Int
        func callAsFunction<K: LaneChannel>(_: K.Type) {
            ChannelDepth.with(bits: kernel.depths.output, OutputChannel<I, K>(kernel: kernel, rows: rows, worker: worker))
        }
    }

    private struct OutputChannel<I: LaneChannel, K: LaneChannel>: ChannelTypeConsumer {
        let kernel: ShadeKernel, rows: Range<Int>, worker: Int
        func callAsFunction<O: LaneChannel>(_: O.Type) {
            // The glare in a specialisation of its own: in the same loop, even behind a test, it
            // made the compiler keep the plain loop's lanes on the stack (a kira sweep 8-10%
            // slower, a cold frame 5-7%: perf samples on 2 cores).
            if kernel.glares == nil {
                kernel.shadeRows(rows, worker, I.self, K.self, O.self, PlainFinish.self)
            } else {
                kernel.shadeRows(rows, worker, I.self, K.self, O.self, GlareFinish.self)
            }
        }
    }

    fileprivate func shadeRows<I: LaneChannel, K: LaneChannel, O: LaneChannel, G: Finish>(
        _ rows: Range<Int>, _ worker: Int, _: I.Type, _: K.Type, _: O.Type, _: G.Type
    ) {
        let width = frame.width
        let artPixel = 4 * MemoryLayout<I>.size
        let maskPixel = 4 * MemoryLayout<K>.size
        let outPixel = 4 * MemoryLayout<O>.size
        let frameBytes = width * frame.height * outPixel
        let frames = frame.frames
        let lanes = Lanes.scalarCount
        let space = frame.scratch.space(of: worker)
        let rowOuts = space.rowOuts, tailPointers = space.tailPointers
        for k in 0..<frames { tailPointers[k] = space.tailOuts + k * WorkerScratch.tailBytes }
        let foilFrames = self.foilFrames.baseAddress!
        let glares = self.glares?.baseAddress
        let size = SIMD2(Float(width), Float(frame.height))
        let premultiplied = frame.premultiplied, intensity = frame.intensity
        var heights = HeightRing(space: space, first: rows.lowerBound, source: height, height: frame.height)

        // Sixteen pixels for every frame: the normal-independent work once, then per frame only
        // what depends on the normal.
        @inline(__always) func shade16(_ row: F.Tables.Row, _ x: Int, _ y: Int, _ art: UnsafeRawPointer,
                                       _ mask: UnsafeRawPointer, _ heightRows: HeightRows,
                                       _ outs: UnsafeMutablePointer<UnsafeMutableRawPointer>, _ offset: Int) {
            var (layer, alpha) = I.loadLanes(art)
            if premultiplied { layer = RGBLanes(layer.r * alpha, layer.g * alpha, layer.b * alpha) }
            let input = FoilInput(x: x, y: y, size: size, layer: layer, alpha: alpha, mono: K.loadLanes(mask).rgb,
                                  intensity: intensity, premultiplied: premultiplied, height: heightRows)
            let pixel = F.pixel(input, row: row)
            for k in 0..<frames {
                var colour = F.shade(pixel, input, row: row, frame: foilFrames[k])
                if G.glare, let glares {
                    colour = Glare.apply(colour, coverage: input.coverage, x: input.centresX, y: input.centreY, frame: glares[k])
                }
                O.storeLanes(colour, alpha: alpha, to: outs[k] + offset)
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
            while x < full {
                shade16(row, x, y, artRow + x * artPixel, maskRow + x * maskPixel, heightRows, rowOuts, x * outPixel)
                x += lanes
            }
            // The row's last partial group of pixels, the one place a tail is handled: copied to
            // scratch, shaded as sixteen, and only the real pixels copied back.
            if x < width {
                let count = width - x
                space.tailArt.copyMemory(from: artRow + x * artPixel, byteCount: count * artPixel)
                space.tailMask.copyMemory(from: maskRow + x * maskPixel, byteCount: count * maskPixel)
                shade16(row, x, y, space.tailArt, space.tailMask, heightRows, tailPointers, 0)
                for k in 0..<frames {
                    (rowOuts[k] + x * outPixel).copyMemory(from: tailPointers[k], byteCount: count * outPixel)
                }
            }
        }
    }
}

/// Whether a kernel's rows screen the glare over the shaded colours, as a type (see
/// ``ShadeKernel``'s output dispatch).
protocol Finish {
    static var glare: Bool { get }
}

enum PlainFinish: Finish {
    static var glare: Bool { false }
}

enum GlareFinish: Finish {
    static var glare: Bool { true }
}

/// Raw views of one render's images, shared read-only by the workers (each writes its own rows).
struct FrameBuffers: @unchecked Sendable {
    let art: UnsafeRawPointer
    let mask: UnsafeRawPointer
    /// Frame `k` starts at `output + k * width * height * pixelBytes`.
    let output: UnsafeMutableRawPointer
    let width: Int
    let height: Int
    let maskWidth: Int
    let maskHeight: Int
    /// Nil when the mask has the art's width.
    let maskColumns: UnsafePointer<Int32>?
    /// How many normals are shaded.
    let frames: Int
    /// Whether the shader reads the art premultiplied (and so writes premultiplied colour).
    let premultiplied: Bool
    let intensity: Float
    let scratch: WorkerScratch
}

/// Per-worker buffers, allocated once and grown only when a frame needs more.
final class WorkerScratch: @unchecked Sendable {
    /// Bytes per worker: a resampled mask row, an art and a mask tail, one output tail per
    /// frame, per frame a pointer to its output row and one to its output tail, then (for foils
    /// that read it) three rows of the height field and a resampled row of its source.
    private(set) var stride = 0
    private(set) var base: UnsafeMutableRawPointer?
    private var layout = Layout(rowBytes: 0, frames: 0, heightFloats: 0)
    private var capacity = 0

    static let maxPixelBytes = 8
    static let tailBytes = Lanes.scalarCount * maxPixelBytes
    /// Floats of margin on either side of a height row (one lane, so that loads one column
    /// beyond either end stay inside).
    static let heightMargin = Lanes.scalarCount

    struct Layout {
        let rowBytes: Int
        let frames: Int
        /// Floats per height row, margins included; 0 without a height field.
        let heightFloats: Int

        var bytes: Int {
            rowBytes + (2 + frames) * WorkerScratch.tailBytes + 2 * frames * MemoryLayout<UnsafeMutableRawPointer>.stride
                + (heightFloats > 0 ? 3 * heightFloats * MemoryLayout<Float>.stride + rowBytes + WorkerScratch.tailBytes : 0)
        }
    }

    func reserve(workers: Int, paddedWidth: Int, frames: Int, heightRows: Bool) {
        let rowBytes = paddedWidth * Self.maxPixelBytes
        layout = Layout(rowBytes: rowBytes, frames: frames,
                        heightFloats: heightRows ? paddedWidth + 2 * Self.heightMargin : 0)
        // Whole cache lines per worker, so that the height rows stay aligned.
        let needed = (layout.bytes + 63) / 64 * 64
        let total = needed * workers
        if total > capacity {
            base?.deallocate()
            base = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
            capacity = total
        }
        stride = needed
    }

    /// Worker `worker`'s buffers.
    func space(of worker: Int) -> WorkerSpace {
        WorkerSpace(base: base! + worker * stride, layout: layout)
    }

    deinit { base?.deallocate() }
}

/// One worker's share of ``WorkerScratch``.
struct WorkerSpace {
    let maskRow: UnsafeMutableRawPointer
    let tailArt: UnsafeMutableRawPointer
    let tailMask: UnsafeMutableRawPointer
    let tailOuts: UnsafeMutableRawPointer
    let rowOuts: UnsafeMutablePointer<UnsafeMutableRawPointer>
    let tailPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Three height rows (column 0 of each is ``WorkerScratch/heightMargin`` floats in), a
    /// resampled source row and a source tail.
    let heightRows: UnsafeMutablePointer<Float>
    let heightFloats: Int
    let sourceRow: UnsafeMutableRawPointer
    let sourceTail: UnsafeMutableRawPointer

    init(base: UnsafeMutableRawPointer, layout: WorkerScratch.Layout) {
        maskRow = base
        tailArt = base + layout.rowBytes
        tailMask = tailArt + WorkerScratch.tailBytes
        tailOuts = tailMask + WorkerScratch.tailBytes
        rowOuts = (tailOuts + layout.frames * WorkerScratch.tailBytes).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        tailPointers = rowOuts + layout.frames
        let heights = UnsafeMutableRawPointer(tailPointers + layout.frames)
        heightRows = heights.assumingMemoryBound(to: Float.self)
        heightFloats = layout.heightFloats
        sourceRow = heights + 3 * layout.heightFloats * MemoryLayout<Float>.stride
        sourceTail = sourceRow + layout.rowBytes
    }
}
