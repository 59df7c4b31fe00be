import KiraImage
import KiraLaneJobs
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
    /// When true, every frame evaluates the whole shader again, the foil's tables (kira's noise
    /// tables) included, as if nothing had been shaded before: what a benchmark of a cold frame
    /// measures. When false (the default) the tables, which depend only on the layer's size, are
    /// kept.
    public var recomputesNoiseTables = false
    /// The CPU level whose kernels shade, and project for a ``FrameRenderer`` built on this
    /// renderer (``KernelLevel/current``, unless a test sets another that this CPU runs).
    package var kernelLevel = KernelLevel.scoped ?? KernelLevel.current

    /// The last foil's tables (a ``FoilTablesBox``), kept while the size and parameters stay.
    private var tables: AnyObject?
    private var maskColumns: MaskColumns?
    private var heightColumns: MaskColumns?
    private var scratch = WorkerScratch()

    /// - Parameters:
    ///   - threads: worker threads (default: one per processor).
    ///   - tileRows: pixel rows per tile (default 16: about 100 µs of work per tile for a card,
    ///     enough to amortise scheduling and small enough to balance two cores), taken into
    ///     1...16384: no image is taller, and the tile count's arithmetic must not overflow.
    public init(threads: Int = TileScheduler.processorCount, tileRows: Int = 16) {
        scheduler = TileScheduler(workers: threads)
        self.tileRows = min(max(1, tileRows), ImageLimits.standard.maxSide)
    }

    /// Shades `art` with the mask `mask` for a face of normal `normal`, into `output`.
    ///
    /// `output` takes the art's size (it is reallocated only when its size differs). The mask may
    /// have any size: it is sampled nearest-neighbour, clamped to its edges, as the original shader
    /// does. So is `foilMap`, the height map of foils that read one
    /// (``/KiraShader/FoilShader/readsHeight``; without it they read the mask's), which must have
    /// the art's aspect ratio (``FaceMapShape``).
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage? = nil, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, into output: inout RGBAImage<Out>
    ) throws(RenderError) {
        try Self.validate(art: art, mask: mask, foilMap: foilMap, parameters: parameters)
        guard KiraUniforms.isValidNormal(normal) else { throw RenderError.invalidNormal(normal) }
        // The channel count too: a caller's image whose channels were changed is made anew, not
        // written past its end.
        if output.width != art.width || output.height != art.height || output.channels.count != art.channels.count {
            output = RGBAImage(sizeOf: art)
        }
        output.channels.withUnsafeMutableBytes { outBytes in
            withUnsafeTemporaryAllocation(of: SIMD3<Float>.self, capacity: 1) { normals in
                normals[0] = normal
                render(art: art, mask: mask, foilMap: foilMap, parameters: parameters, normals: UnsafeBufferPointer(normals),
                       premultiplied: false, output: outBytes.baseAddress!, as: Out.self)
            }
        }
    }

    /// Shades `art` for each of `normals` in one pass over the card: a *sweep*.
    ///
    /// The work that does not depend on the normal (the foil's per-pixel work, reading the art and
    /// the mask) is done once per pixel for all the frames, so each extra frame costs a fraction
    /// of a cold one. Frame `k` of `output` is byte for byte what shading `art` alone for
    /// `normals[k]` gives.
    ///
    /// With `premultiplied`, the faces are shaded as SwiftUI's `layerEffect` shades a layer: the
    /// shader reads the art premultiplied (`layer.sample` is premultiplied) and its result,
    /// `layer.rgb + kira * mono` with the layer's alpha, is stored as it is, premultiplied: the
    /// shine also lights where the art is transparent, as it does on screen. That is what
    /// ``FrameRenderer`` composites; flat output (`kira shade`) keeps straight alpha.
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage? = nil, normals: [SIMD3<Float>],
        parameters: KiraParameters = .seed, premultiplied: Bool = false, into output: inout FrameStack<Out>
    ) throws(RenderError) {
        try Self.validate(art: art, mask: mask, foilMap: foilMap, parameters: parameters)
        // A concrete array: iterating it through a generic collection would allocate per element.
        for normal in normals where !KiraUniforms.isValidNormal(normal) { throw RenderError.invalidNormal(normal) }
        if output.width != art.width || output.height != art.height || output.count != normals.count
            || output.channels.count != art.channels.count * normals.count {
            output = try FrameStack(art: art, count: normals.count)
        }
        guard !normals.isEmpty else { return }
        normals.withUnsafeBufferPointer { normals in
            output.channels.withUnsafeMutableBytes { outBytes in
                render(art: art, mask: mask, foilMap: foilMap, parameters: parameters, normals: normals,
                       premultiplied: premultiplied, output: outBytes.baseAddress!, as: Out.self)
            }
        }
    }

    /// Shades `art` and returns a new image at the channel depth `Out`.
    public func shade<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage? = nil, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, as: Out.Type
    ) throws(RenderError) -> RGBAImage<Out> {
        var output = RGBAImage<Out>()
        try shade(art: art, mask: mask, foilMap: foilMap, normal: normal, parameters: parameters, into: &output)
        return output
    }

    /// Throws when the images cannot be shaded (empty, or channels that no longer match their
    /// size: the kernels read them by their size), or the parameters are out of range. The
    /// reference renderer checks the same.
    static func validate<In, M>(art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage?,
                                parameters: KiraParameters) throws(RenderError) {
        do {
            try art.checkChannels()
        } catch {
            throw .invalidImage("art", error)
        }
        do {
            try mask.checkChannels()
        } catch {
            throw .invalidImage("mask", error)
        }
        guard art.width > 0, art.height > 0 else { throw RenderError.emptyImage("art") }
        guard mask.width > 0, mask.height > 0 else { throw RenderError.emptyImage("mask") }
        if let problem = parameters.problem { throw RenderError.invalidParameters(problem) }
        try foilMap?.checkChannels("foil map")
        try FaceMapShape.check(foilMap, art: SIMD2(art.width, art.height))
    }

    /// Runs the kernel of the parameters' foil over every tile for the frames of `normals`;
    /// frame `k` goes to `output + k * frameBytes`.
    ///
    /// The images become raw views here, before the foil is chosen: each level's kernel module
    /// specialises the foil's rows for each foil (the channel depths are tested per sixteen
    /// pixels), whatever generic context the caller is in. Chosen under the generic channel
    /// types instead, the kernel ran unspecialised, 2-4x slower.
    private func render<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage?, parameters: KiraParameters,
        normals: UnsafeBufferPointer<SIMD3<Float>>, premultiplied: Bool, output: UnsafeMutableRawPointer, as: Out.Type
    ) {
        if maskColumns?.matches(width: art.width, maskWidth: mask.width) != true {
            maskColumns = MaskColumns(width: art.width, maskWidth: mask.width)
        }
        let readsHeight = FoilRegistry.with(parameters.foil, ReadsHeight())
        let heightSource = readsHeight ? (foilMap ?? M.erased(mask)) : nil
        if let heightSource, heightColumns?.matches(width: art.width, maskWidth: heightSource.width) != true {
            heightColumns = MaskColumns(width: art.width, maskWidth: heightSource.width)
        }
        let paddedWidth = (art.width + Lanes.scalarCount - 1) / Lanes.scalarCount * Lanes.scalarCount
        scratch.reserve(workers: scheduler.workers, paddedWidth: paddedWidth, frames: normals.count, heightRows: readsHeight)
        let columns = maskColumns!
        art.channels.withUnsafeBytes { artBytes in
            mask.channels.withUnsafeBytes { maskBytes in
                columns.indices.withUnsafeBufferPointer { columnIndices in
                    heightSource.withHeightSource(columns: heightColumns) { height in
                        let frame = FrameBuffers(
                            art: artBytes.baseAddress!, mask: maskBytes.baseAddress!, output: output,
                            width: art.width, height: art.height, maskWidth: mask.width, maskHeight: mask.height,
                            maskColumns: columns.isIdentity ? nil : columnIndices.baseAddress!,
                            frames: normals.count, premultiplied: premultiplied, intensity: parameters.intensity,
                            scratch: scratch)
                        let job = ShadeJob(frame: frame, height: height, parameters: parameters, normals: normals,
                                           depths: (In.bitDepth, M.bitDepth, Out.bitDepth))
                        FoilRegistry.with(parameters.foil, ShadeWithFoil(renderer: self, job: job))
                    }
                }
            }
        }
    }

    /// ``render(art:mask:foilMap:parameters:normals:premultiplied:output:as:)`` for the foil `F`:
    /// the foil's tables and frames here, the rows in the kernels of ``kernelLevel``.
    fileprivate func render<F: FoilShader>(_: F.Type, _ job: ShadeJob) {
        let frame = job.frame, parameters = job.parameters, frameCount = job.normals.count
        let size = SIMD2(Float(frame.width), Float(frame.height))
        let tables = foilTables(F.self, width: frame.width, height: frame.height, parameters: parameters)
        let glare = parameters.glare
        withUnsafeTemporaryAllocation(of: F.Frame.self, capacity: frameCount) { foilFrames in
            withUnsafeTemporaryAllocation(of: Glare.Frame.self, capacity: glare > 0 ? frameCount : 0) { glares in
                for (k, normal) in job.normals.enumerated() {
                    (foilFrames.baseAddress! + k).initialize(to: F.frame(normal: normal, parameters: parameters, size: size))
                    if glare > 0 { glares[k] = Glare.frame(normal: normal, size: size, strength: glare) }
                }
                defer { foilFrames.baseAddress!.deinitialize(count: frameCount) }
                var task = ShadeTask(
                    frame: frame, height: job.height, foil: parameters.foil, tables: tables,
                    foilFrames: UnsafeRawPointer(foilFrames.baseAddress!),
                    glares: glare > 0 ? UnsafePointer(glares.baseAddress!) : nil, tileRows: tileRows, depths: job.depths)
                withUnsafeMutablePointer(to: &task) { task in
                    scheduler.run(tiles: (frame.height + tileRows - 1) / tileRows, context: task, kernelLevel.shadeTile)
                }
            }
        }
    }

    /// The foil's tables for a face of this size: kept from the last render when they serve it
    /// (evaluated again in place for a cold frame), else made anew.
    private func foilTables<F: FoilShader>(_: F.Type, width: Int, height: Int, parameters: KiraParameters) -> FoilTablesBox<F.Tables> {
        if let box = tables as? FoilTablesBox<F.Tables>, box.tables.serves(width: width, height: height, parameters: parameters) {
            if recomputesNoiseTables { box.tables.recompute() }
            return box
        }
        let box = FoilTablesBox(F.Tables(width: width, height: height, parameters: parameters))
        tables = box
        return box
    }
}

/// One call's images (as raw views) and frames, before the foil is known.
private struct ShadeJob {
    let frame: FrameBuffers
    let height: HeightSource?
    let parameters: KiraParameters
    let normals: UnsafeBufferPointer<SIMD3<Float>>
    let depths: (art: Int, mask: Int, output: Int)
}

/// ``ShadeRenderer``'s render at the parameters' foil type.
private struct ShadeWithFoil: FoilTypeConsumer {
    let renderer: ShadeRenderer
    let job: ShadeJob
    func callAsFunction<F: FoilShader>(_ foil: F.Type) { renderer.render(foil, job) }
}

/// Whether the foil reads the height field.
private struct ReadsHeight: FoilTypeConsumer {
    func callAsFunction<F: FoilShader>(_: F.Type) -> Bool { F.readsHeight }
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

extension ShadeRenderer {
    /// Shades art and a mask of either bit depth into `output`; see
    /// ``shade(art:mask:foilMap:normal:parameters:into:)``.
    public func shade<Out: LaneChannel>(
        art: AnyRGBAImage, mask: AnyRGBAImage, foilMap: AnyRGBAImage? = nil, normal: SIMD3<Float>,
        parameters: KiraParameters = .seed, into output: inout RGBAImage<Out>
    ) throws(RenderError) {
        try withUnsafeMutablePointer(to: &output) { (output) throws(RenderError) in
            try art.open(mask: mask, Shade(renderer: self, foilMap: foilMap, normal: normal, parameters: parameters,
                                           output: output))
        }
    }
}

/// ``ShadeRenderer/shade(art:mask:foilMap:normal:parameters:into:)`` at the images' channel types.
private struct Shade<Out: LaneChannel>: ArtMaskConsumer {
    let renderer: ShadeRenderer
    let foilMap: AnyRGBAImage?
    let normal: SIMD3<Float>
    let parameters: KiraParameters
    let output: UnsafeMutablePointer<RGBAImage<Out>>

    func callAsFunction<A: LaneChannel, M: LaneChannel>(art: RGBAImage<A>, mask: RGBAImage<M>) throws(RenderError) {
        try renderer.shade(art: art, mask: mask, foilMap: foilMap, normal: normal, parameters: parameters,
                           into: &output.pointee)
    }
}
