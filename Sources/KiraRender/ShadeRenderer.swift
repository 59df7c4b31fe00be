import KiraImage
import KiraShader

/// Shades a flat card face with the kira shader, fast: sixteen pixels per step, rows in tiles
/// spread over threads.
///
/// A renderer keeps the buffers and tables it needs between calls, so shading frame after frame
/// allocates nothing once the sizes are settled. Use one renderer from one thread at a time; it
/// runs its own worker threads. The output does not depend on the number of threads or on the
/// tile size: each pixel is computed by the same operations whoever computes it.
public final class ShadeRenderer {
    /// The workers that shade tiles.
    public let scheduler: TileScheduler
    /// Pixel rows per tile.
    public let tileRows: Int
    /// When true, every frame evaluates the whole shader again, noise tables included, as if
    /// nothing had been shaded before: what a benchmark of a cold frame measures. When false
    /// (the default) the noise tables, which depend only on the layer's size, are kept.
    public var recomputesNoiseTables = false

    private var noise: NoiseTables?
    private var maskColumns: MaskColumns?
    private var scratch = WorkerScratch()
    private var angleBuffer: [SIMD3<Float>] = []

    /// - Parameters:
    ///   - threads: worker threads (default: one per processor).
    ///   - tileRows: pixel rows per tile (default 16: about 100 µs of work per tile for a card,
    ///     enough to amortise scheduling and small enough to balance two cores).
    public init(threads: Int = TileScheduler.processorCount, tileRows: Int = 16) {
        scheduler = TileScheduler(workers: threads)
        self.tileRows = max(1, tileRows)
    }

    /// Shades `art` with the mask `mask` for a face of normal `normal`, into `output`.
    ///
    /// `output` takes the art's size (it is reallocated only when its size differs). The mask may
    /// have any size: it is sampled nearest-neighbour, clamped to its edges, as the original shader does.
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, into output: inout RGBAImage<Out>
    ) throws(RenderError) {
        try validate(art: art, mask: mask)
        guard KiraUniforms.isValidNormal(normal) else { throw RenderError.invalidNormal(normal) }
        if output.width != art.width || output.height != art.height {
            output = RGBAImage(width: art.width, height: art.height)
        }
        let angle = KiraUniforms(normal: normal, parameters: parameters).angleColorRGB
        output.channels.withUnsafeMutableBytes { outBytes in
            withUnsafeTemporaryAllocation(of: SIMD3<Float>.self, capacity: 1) { angles in
                angles[0] = angle
                render(art: art, mask: mask, parameters: parameters, angles: UnsafeBufferPointer(angles),
                       premultiplied: false, output: outBytes.baseAddress!, as: Out.self)
            }
        }
    }

    /// Shades `art` for each of `normals` in one pass over the card: a *sweep*.
    ///
    /// The work that does not depend on the normal (noise, colours, reading the art and the mask)
    /// is done once per pixel for all the frames, so each extra frame costs a fraction of a cold
    /// one. Frame `k` of `output` is byte for byte what shading `art` alone for `normals[k]` gives.
    ///
    /// With `premultiplied`, the faces are shaded as SwiftUI's `layerEffect` shades a layer: the
    /// shader reads the art premultiplied (`layer.sample` is premultiplied) and its result,
    /// `layer.rgb + kira * mono` with the layer's alpha, is stored as it is, premultiplied: the
    /// shine also lights where the art is transparent, as it does on screen. That is what
    /// ``FrameRenderer`` composites; flat output (`kira shade`) keeps straight alpha.
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, normals: [SIMD3<Float>],
        parameters: KiraParameters = .seed, premultiplied: Bool = false, into output: inout FrameStack<Out>
    ) throws(RenderError) {
        try validate(art: art, mask: mask)
        // A concrete array: iterating it through a generic collection would allocate per element.
        for normal in normals where !KiraUniforms.isValidNormal(normal) { throw RenderError.invalidNormal(normal) }
        if output.width != art.width || output.height != art.height || output.count != normals.count {
            output = FrameStack(width: art.width, height: art.height, count: normals.count)
        }
        guard !normals.isEmpty else { return }
        if angleBuffer.count < normals.count {
            angleBuffer = Array(repeating: .zero, count: normals.count)
        }
        for (k, normal) in normals.enumerated() {
            angleBuffer[k] = KiraUniforms(normal: normal, parameters: parameters).angleColorRGB
        }
        angleBuffer.withUnsafeBufferPointer { angles in
            output.channels.withUnsafeMutableBytes { outBytes in
                render(art: art, mask: mask, parameters: parameters,
                       angles: UnsafeBufferPointer(rebasing: angles[0..<normals.count]),
                       premultiplied: premultiplied, output: outBytes.baseAddress!, as: Out.self)
            }
        }
    }

    /// Shades `art` and returns a new image at the channel depth `Out`.
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, as: Out.Type
    ) throws(RenderError) -> RGBAImage<Out> {
        var output = RGBAImage<Out>(width: art.width, height: art.height)
        try shade(art: art, mask: mask, normal: normal, parameters: parameters, into: &output)
        return output
    }

    private func validate<In, M>(art: RGBAImage<In>, mask: RGBAImage<M>) throws(RenderError) {
        guard art.width > 0, art.height > 0 else { throw RenderError.emptyImage("art") }
        guard mask.width > 0, mask.height > 0 else { throw RenderError.emptyImage("mask") }
    }

    /// Runs the kernel over every tile for the frames whose view-angle colours are `angles`;
    /// frame `k` goes to `output + k * frameBytes`.
    private func render<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, parameters: KiraParameters,
        angles: UnsafeBufferPointer<SIMD3<Float>>, premultiplied: Bool, output: UnsafeMutableRawPointer, as: Out.Type
    ) {
        prepare(width: art.width, height: art.height, maskSize: (mask.width, mask.height), parameters: parameters)
        let tables = noise!
        let columns = maskColumns!
        scratch.reserve(workers: scheduler.workers, paddedWidth: tables.paddedWidth, frames: angles.count)
        let tiles = (art.height + tileRows - 1) / tileRows
        art.channels.withUnsafeBytes { artBytes in
            mask.channels.withUnsafeBytes { maskBytes in
                columns.indices.withUnsafeBufferPointer { columnIndices in
                    let frame = FrameBuffers(
                        art: artBytes.baseAddress!, mask: maskBytes.baseAddress!, output: output,
                        width: art.width, height: art.height, maskWidth: mask.width, maskHeight: mask.height,
                        maskColumns: columns.isIdentity ? nil : columnIndices.baseAddress!,
                        angles: angles, premultiplied: premultiplied, scratch: scratch)
                    var kernel = Kernel(tables: tables, frame: frame, tileRows: tileRows,
                                        depths: (In.bitDepth, M.bitDepth, Out.bitDepth))
                    withUnsafeMutablePointer(to: &kernel) { kernel in
                        scheduler.run(tiles: tiles, context: kernel) { kernel, tile, worker in
                            kernel.assumingMemoryBound(to: Kernel.self).pointee.shade(tile: tile, worker: worker)
                        }
                    }
                }
            }
        }
    }

    private func prepare(width: Int, height: Int, maskSize: (Int, Int), parameters: KiraParameters) {
        // No binding of `noise` here: a second reference to its arrays would make `recompute()`
        // copy them.
        if noise?.width == width, noise?.height == height, noise?.parameters == parameters {
            if recomputesNoiseTables { noise!.recompute() }
        } else {
            noise = NoiseTables(width: width, height: height, parameters: parameters)
        }
        if maskColumns?.matches(width: width, maskWidth: maskSize.0) != true {
            maskColumns = MaskColumns(width: width, maskWidth: maskSize.0)
        }
    }
}

/// The mask texel column of every art column (nearest-neighbour at `UV.x`).
struct MaskColumns {
    let width: Int
    let maskWidth: Int
    let indices: [Int32]
    /// The mask has the art's width: column x reads texel x.
    let isIdentity: Bool

    init(width: Int, maskWidth: Int) {
        self.width = width
        self.maskWidth = maskWidth
        indices = (0..<width).map { x in
            Int32(SeedShader.nearestTexel((Float(x) + 0.5) / Float(width), size: maskWidth))
        }
        isIdentity = indices.enumerated().allSatisfy { Int($0.element) == $0.offset } && maskWidth == width
    }

    func matches(width: Int, maskWidth: Int) -> Bool {
        self.width == width && self.maskWidth == maskWidth
    }
}

/// Per-worker buffers, allocated once and grown only when a frame needs more.
final class WorkerScratch: @unchecked Sendable {
    /// Bytes per worker: a resampled mask row, an art and a mask tail, one output tail per
    /// frame, then per frame a pointer to its output row and one to its output tail.
    private(set) var stride = 0
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var maskRowBytes = 0
    private var capacity = 0

    static let maxPixelBytes = 8
    static let tailBytes = Lanes.scalarCount * maxPixelBytes

    func reserve(workers: Int, paddedWidth: Int, frames: Int) {
        maskRowBytes = paddedWidth * Self.maxPixelBytes
        let needed = maskRowBytes + (2 + frames) * Self.tailBytes + 2 * frames * MemoryLayout<UnsafeMutableRawPointer>.stride
        let total = needed * workers
        if total > capacity {
            base?.deallocate()
            base = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
            capacity = total
        }
        stride = needed
    }

    deinit { base?.deallocate() }
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
    /// Per frame, the colour of the view angle (`generateAngleRGB`).
    let angles: UnsafeBufferPointer<SIMD3<Float>>
    /// Whether the shader reads the art premultiplied (and so writes premultiplied colour).
    let premultiplied: Bool
    let scratch: WorkerScratch
}

/// The per-row work: everything between the scheduler and the shader's lane functions.
struct Kernel: @unchecked Sendable {
    let tables: NoiseTables
    let frame: FrameBuffers
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
        let kernel: Kernel, rows: Range<Int>, worker: Int
        func callAsFunction<I: LaneChannel>(_: I.Type) {
            ChannelDepth.with(bits: kernel.depths.mask, MaskChannel<I>(kernel: kernel, rows: rows, worker: worker))
        }
    }

    private struct MaskChannel<I: LaneChannel>: ChannelTypeConsumer {
        let kernel: Kernel, rows: Range<Int>, worker: Int
        func callAsFunction<K: LaneChannel>(_: K.Type) {
            ChannelDepth.with(bits: kernel.depths.output, OutputChannel<I, K>(kernel: kernel, rows: rows, worker: worker))
        }
    }

    private struct OutputChannel<I: LaneChannel, K: LaneChannel>: ChannelTypeConsumer {
        let kernel: Kernel, rows: Range<Int>, worker: Int
        func callAsFunction<O: LaneChannel>(_: O.Type) {
            kernel.shadeRows(rows, worker, I.self, K.self, O.self)
        }
    }

    fileprivate func shadeRows<I: LaneChannel, K: LaneChannel, O: LaneChannel>(
        _ rows: Range<Int>, _ worker: Int, _: I.Type, _: K.Type, _: O.Type
    ) {
        let width = frame.width
        let artPixel = 4 * MemoryLayout<I>.size
        let maskPixel = 4 * MemoryLayout<K>.size
        let outPixel = 4 * MemoryLayout<O>.size
        let frameBytes = width * frame.height * outPixel
        let frames = frame.angles.count
        let lanes = Lanes.scalarCount
        let scratch = frame.scratch.base! + worker * frame.scratch.stride
        let tailArt = scratch + frame.scratch.maskRowBytes
        let tailMask = tailArt + WorkerScratch.tailBytes
        let tailOuts = tailMask + WorkerScratch.tailBytes
        let rowOuts = (tailOuts + frames * WorkerScratch.tailBytes).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        let tailPointers = rowOuts + frames
        for k in 0..<frames { tailPointers[k] = tailOuts + k * WorkerScratch.tailBytes }
        let angles = frame.angles.baseAddress!

        // Sixteen pixels for every frame: the normal-independent work once, then per frame only
        // the distance to that frame's view-angle colour and the composite.
        @inline(__always) func shade16(_ row: NoiseTables.RowTables, _ x: Int, _ art: UnsafeRawPointer,
                                       _ mask: UnsafeRawPointer, _ outs: UnsafeMutablePointer<UnsafeMutableRawPointer>,
                                       _ offset: Int) {
            var (layer, alpha) = I.loadLanes(art)
            if frame.premultiplied { layer = RGBLanes(layer.r * alpha, layer.g * alpha, layer.b * alpha) }
            let mono = K.loadLanes(mask).rgb
            let colors = KiraLanes.noiseColors(valueNoise: row.valueNoise(at: x))
            for k in 0..<frames {
                let kira = KiraLanes.generateKiraRGB(colors, angleColorRGB: angles[k])
                O.storeLanes(KiraLanes.composite(kira: kira, layer: layer, mono: mono), alpha: alpha,
                             to: outs[k] + offset)
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
                    (scratch + x * maskPixel).copyMemory(
                        from: maskRow + Int(columns[x]) * maskPixel, byteCount: maskPixel)
                }
                maskRow = UnsafeRawPointer(scratch)
            }
            let row = tables.rowTables(y)

            let full = width - width % lanes
            var x = 0
            while x < full {
                shade16(row, x, artRow + x * artPixel, maskRow + x * maskPixel, rowOuts, x * outPixel)
                x += lanes
            }
            // The row's last partial group of pixels, the one place a tail is handled: copied to
            // scratch, shaded as sixteen, and only the real pixels copied back.
            if x < width {
                let count = width - x
                tailArt.copyMemory(from: artRow + x * artPixel, byteCount: count * artPixel)
                tailMask.copyMemory(from: maskRow + x * maskPixel, byteCount: count * maskPixel)
                shade16(row, x, tailArt, tailMask, tailPointers, 0)
                for k in 0..<frames {
                    (rowOuts[k] + x * outPixel).copyMemory(from: tailPointers[k], byteCount: count * outPixel)
                }
            }
        }
    }
}

extension ShadeRenderer {
    /// Shades art and a mask of either bit depth into `output`; see
    /// ``shade(art:mask:normal:parameters:into:)``.
    public func shade<Out: LaneChannel>(
        art: AnyRGBAImage, mask: AnyRGBAImage, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, into output: inout RGBAImage<Out>
    ) throws(RenderError) {
        try withUnsafeMutablePointer(to: &output) { (output) throws(RenderError) in
            try art.open(mask: mask, Shade(renderer: self, normal: normal, parameters: parameters, output: output))
        }
    }
}

/// ``ShadeRenderer/shade(art:mask:normal:parameters:into:)`` at the images' channel types.
private struct Shade<Out: LaneChannel>: ArtMaskConsumer {
    let renderer: ShadeRenderer
    let normal: SIMD3<Float>
    let parameters: KiraParameters
    let output: UnsafeMutablePointer<RGBAImage<Out>>

    func callAsFunction<A: LaneChannel, M: LaneChannel>(art: RGBAImage<A>, mask: RGBAImage<M>) throws(RenderError) {
        try renderer.shade(art: art, mask: mask, normal: normal, parameters: parameters, into: &output.pointee)
    }
}
