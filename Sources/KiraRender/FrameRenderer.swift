import KiraGeometry
import KiraImage
import KiraLaneJobs
import KiraShader

/// Renders the card as SwiftUI shows it: each visible face shaded flat by the kira shader, then
/// projected through its `rotation3DEffect` homographies onto the canvas.
///
/// Everything is premultiplied, as in SwiftUI and Core Animation: the shader reads the art
/// premultiplied and its result is kept premultiplied (so the shine also lights transparent art,
/// as `layerEffect` does), every canvas pixel maps back through the inverse homography and samples
/// the shaded face bilinearly as stored (clamped to the face; transparent texels bleed no colour),
/// or, where the face is drawn smaller than its texels, averages bilinear taps over its footprint
/// (`FaceFootprint`),
/// opacity and the exact area of the pixel the face covers scale the premultiplied colour, and
/// faces are composited source-over; the canvas is stored with straight alpha, as PNG wants. Like
/// ``ShadeRenderer``, a frame renderer reuses its buffers, and its output does not depend on the
/// number of threads.
public final class FrameRenderer {
    /// Shades the faces, and lends its workers to the projection.
    public let shader: ShadeRenderer

    /// Which shader path shades the faces.
    public enum FaceShading: Sendable {
        /// ``ShadeRenderer``'s SIMD lanes (the default).
        case fast
        /// ``ReferenceRenderer``, the plain scalar port of the original shader: slow, for golden images.
        case reference
    }

    /// Which shader path shades the faces; the projection is the same for both.
    public var faceShading = FaceShading.fast

    /// How faces are projected onto the canvas and composited.
    package enum ProjectionPath: Sendable {
        /// Sixteen canvas pixels at a time, in the kernels of the CPU's level, the default.
        case lanes
        /// One pixel at a time (``ScalarProjectionJob``): the readable reference the lanes are
        /// tested against, byte for byte.
        case scalar
    }

    /// How faces are projected; both paths give the same bytes.
    package var projectionPath = ProjectionPath.lanes
    private var faceStore: AnyObject?
    private var rowScratch: UnsafeMutablePointer<Float>?
    private var rowScratchCount = 0
    // Per-batch plans, kept so that frame after frame allocates nothing.
    private var normals: (front: [SIMD3<Float>], back: [SIMD3<Float>]) = ([], [])
    private var plannedLayers: [PlannedLayer] = []
    private var projections: [FaceProjection] = []
    private var faces: [UnsafeRawPointer] = []

    /// Where the faces of each frame of the last render landed: the smallest rectangle that holds
    /// every pixel a face touches (empty when no face shows). Outside it, a frame is its
    /// background.
    public private(set) var drawnRegions: [ImageRegion] = []

    /// A face of one frame of a batch: its layer and where its shaded face lies in its side's stack.
    private struct PlannedLayer {
        let frame: Int
        let layer: FaceLayer
        let stackIndex: Int
    }

    public init(threads: Int = TileScheduler.processorCount, tileRows: Int = 16) {
        shader = ShadeRenderer(threads: threads, tileRows: tileRows)
    }

    deinit { rowScratch?.deallocate() }

    /// Renders `scene` into `output`, which takes the canvas size. Once the sizes are settled,
    /// a frame allocates nothing.
    ///
    /// Throws, before anything is allocated or drawn, what ``FrameScene/validate()`` refuses
    /// (the scene's properties are variables: they are checked here whatever made them).
    public func render<Out: LaneChannel>(_ scene: FrameScene, into output: inout RGBAImage<Out>) throws(RenderError) {
        drawnRegions.removeAll(keepingCapacity: true)
        try renderFrame(scene, into: &output)
    }

    /// ``render(_:into:)``, adding to ``drawnRegions``.
    private func renderFrame<Out: LaneChannel>(_ scene: FrameScene, into output: inout RGBAImage<Out>) throws(RenderError) {
        try scene.validate()
        let buffers: FaceBuffers<Out> = faceBuffers()
        try withUnsafePointer(to: scene) { (scene) throws(RenderError) in
            try shade(UnsafeBufferPointer(start: scene, count: 1), into: buffers)
        }
        project(frame: 0, scene, buffers: buffers, into: &output)
    }

    /// Renders several frames of one card: each output is what ``render(_:into:)`` gives for its
    /// scene, byte for byte.
    ///
    /// When the scenes share their faces (the same art and mask buffers, as the frames of an
    /// animation do), each side is shaded for all the frames in one sweep
    /// (``ShadeRenderer/shade(art:mask:foilMap:normals:parameters:premultiplied:into:)``), so the work that
    /// does not depend on the tilt is done once per pixel for the whole batch.
    ///
    /// Throws, before anything is drawn, what ``FrameScene/validate()`` refuses in any scene.
    public func render<Out: LaneChannel>(_ scenes: [FrameScene], into outputs: inout [RGBAImage<Out>]) throws(RenderError) {
        drawnRegions.removeAll(keepingCapacity: true)
        guard let first = scenes.first else {
            outputs = []
            return
        }
        for scene in scenes { try scene.validate() }
        // Canvases already there are kept (and reused when of the right size).
        if outputs.count > scenes.count { outputs.removeLast(outputs.count - scenes.count) }
        while outputs.count < scenes.count { outputs.append(RGBAImage()) }
        guard scenes.allSatisfy({ $0.sharesFaces(with: first) }) else {
            // Faces differ: no sweep to share, render the scenes one by one.
            for (i, scene) in scenes.enumerated() { try renderFrame(scene, into: &outputs[i]) }
            return
        }
        let buffers: FaceBuffers<Out> = faceBuffers()
        try scenes.withUnsafeBufferPointer { (scenes) throws(RenderError) in try shade(scenes, into: buffers) }
        for (i, scene) in scenes.enumerated() { project(frame: i, scene, buffers: buffers, into: &outputs[i]) }
    }

    /// Plans the layers of `scenes` (which share their faces) and shades them: one sweep per
    /// side, frame `k` of a side's stack for the `k`-th layer of that side.
    private func shade<Out: LaneChannel>(
        _ scenes: UnsafeBufferPointer<FrameScene>, into buffers: FaceBuffers<Out>
    ) throws(RenderError) {
        plannedLayers.removeAll(keepingCapacity: true)
        normals.front.removeAll(keepingCapacity: true)
        normals.back.removeAll(keepingCapacity: true)
        for (frame, scene) in scenes.enumerated() {
            let layers = scene.layers()
            // By index, through FaceLayers' own accessors: a for-in goes through the collection's
            // witnesses, which allocate a coroutine frame per element.
            for index in layers.startIndex..<layers.endIndex where layers[index].opacity > 0 {
                let layer = layers[index]
                let stackIndex: Int
                if layer.side == .front {
                    stackIndex = normals.front.count
                    normals.front.append(layer.normal)
                } else {
                    stackIndex = normals.back.count
                    normals.back.append(layer.normal)
                }
                plannedLayers.append(PlannedLayer(frame: frame, layer: layer, stackIndex: stackIndex))
            }
        }
        guard let first = scenes.first else { return }
        if !normals.front.isEmpty {
            try shadeSweep(first.front, normals: normals.front, parameters: first.parameters, into: &buffers.stacks[0])
        }
        if !normals.back.isEmpty {
            try shadeSweep(first.back, normals: normals.back, parameters: first.parameters, into: &buffers.stacks[1])
        }
    }

    /// Projects the planned layers of frame `frame` (the batch's `frame`-th scene) onto `output`.
    private func project<Out: LaneChannel>(
        frame: Int, _ scene: FrameScene, buffers: FaceBuffers<Out>, into output: inout RGBAImage<Out>
    ) {
        let card = SIMD2(Double(scene.front.art.width), Double(scene.front.art.height))
        projections.removeAll(keepingCapacity: true)
        faces.removeAll(keepingCapacity: true)
        // The channel count too: a caller's canvas whose channels were changed is made anew, not
        // written past its end.
        if output.width != scene.canvasWidth || output.height != scene.canvasHeight
            || output.channels.count != scene.canvasWidth * scene.canvasHeight * 4 {
            output = RGBAImage(checkedWidth: scene.canvasWidth, height: scene.canvasHeight)
        }
        buffers.stacks[0].channels.withUnsafeBufferPointer { frontChannels in
            buffers.stacks[1].channels.withUnsafeBufferPointer { backChannels in
                for planned in plannedLayers where planned.frame == frame {
                    let side = planned.layer.side == .front ? 0 : 1
                    let stack = buffers.stacks[side]
                    let channels = side == 0 ? frontChannels : backChannels
                    // Face pixels to card points (a back of another size is stretched over the
                    // card), then onto the canvas.
                    let scale = Homography(rows: SIMD3(card.x / Double(stack.width), 0, 0),
                                           SIMD3(0, card.y / Double(stack.height), 0), SIMD3(0, 0, 1))
                    if let projection = FaceProjection(
                        homography: scale.then(planned.layer.homography), faceSize: SIMD2(stack.width, stack.height),
                        opacity: planned.layer.opacity, canvas: SIMD2(scene.canvasWidth, scene.canvasHeight)) {
                        projections.append(projection)
                        faces.append(UnsafeRawPointer(channels.baseAddress! + planned.stackIndex * stack.frameChannels))
                    }
                }
                composite(background: scene.background.premultiplied, into: &output)
                drawnRegions.append(projections.reduce(ImageRegion(x: 0, y: 0, width: 0, height: 0)) { drawn, face in
                    drawn.union(ImageRegion(x: face.columns.lowerBound, y: face.rows.lowerBound,
                                            width: face.columns.count, height: face.rows.count))
                })
            }
        }
    }

    private func shadeSweep<Out: LaneChannel>(
        _ face: CardFace, normals: [SIMD3<Float>], parameters: KiraParameters, into stack: inout FrameStack<Out>
    ) throws(RenderError) {
        try withUnsafeMutablePointer(to: &stack) { (stack) throws(RenderError) in
            try face.art.open(mask: face.mask, Sweep(renderer: self, foilMap: face.foilMap, normals: normals,
                                                     parameters: parameters, stack: stack))
        }
    }

    fileprivate func shadeSweep<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, foilMap: AnyRGBAImage?, normals: [SIMD3<Float>],
        parameters: KiraParameters, into stack: inout FrameStack<Out>
    ) throws(RenderError) {
        switch faceShading {
        case .fast:
            try shader.shade(art: art, mask: mask, foilMap: foilMap, normals: normals, parameters: parameters,
                             premultiplied: true, into: &stack)
        case .reference:
            if stack.width != art.width || stack.height != art.height || stack.count != normals.count {
                stack = try FrameStack(art: art, count: normals.count)
            }
            for (k, normal) in normals.enumerated() {
                let face = try ReferenceRenderer.shade(art: art, mask: mask, foilMap: foilMap, normal: normal,
                                                       parameters: parameters, premultiplied: true, as: Out.self)
                stack.channels.replaceSubrange((k * stack.frameChannels)..<((k + 1) * stack.frameChannels), with: face.channels)
            }
        }
    }

    private func faceBuffers<C: ImageChannel>() -> FaceBuffers<C> {
        if let buffers = faceStore as? FaceBuffers<C> { return buffers }
        let buffers = FaceBuffers<C>()
        faceStore = buffers
        return buffers
    }

    /// Composites `projections` (their shaded faces at `faces`) over `background` onto `output`.
    private func composite<Out: LaneChannel>(background: SIMD4<Float>, into output: inout RGBAImage<Out>) {
        let scheduler = shader.scheduler
        let width = output.width
        if rowScratchCount < scheduler.workers * width * 4 {
            rowScratch?.deallocate()
            rowScratchCount = scheduler.workers * width * 4
            rowScratch = .allocate(capacity: rowScratchCount)
        }
        let tileRows = shader.tileRows
        let tiles = (output.height + tileRows - 1) / tileRows
        output.channels.withUnsafeMutableBufferPointer { out in
            faces.withUnsafeBufferPointer { faces in
                var frame = ProjectionFrame(
                    projections: projections, faces: faces.baseAddress!, output: UnsafeMutableRawPointer(out.baseAddress!),
                    depth: Out.bitDepth, width: width, height: output.height, tileRows: tileRows, background: background)
                if projectionPath == .lanes, frame.fitsLanes {
                    withUnsafeMutablePointer(to: &frame) { frame in
                        scheduler.run(tiles: tiles, context: frame, shader.kernelLevel.projectTile)
                    }
                    return
                }
                var job = ScalarProjectionJob(frame: frame, scratch: rowScratch!)
                withUnsafeMutablePointer(to: &job) { job in
                    scheduler.run(tiles: tiles, context: job) { job, tile, worker in
                        job.assumingMemoryBound(to: ScalarProjectionJob.self).pointee.run(tile: tile, worker: worker)
                    }
                }
            }
        }
    }
}

/// ``FrameRenderer``'s sweep of one side at its images' channel types.
private struct Sweep<Out: LaneChannel>: ArtMaskConsumer {
    let renderer: FrameRenderer
    let foilMap: AnyRGBAImage?
    let normals: [SIMD3<Float>]
    let parameters: KiraParameters
    let stack: UnsafeMutablePointer<FrameStack<Out>>

    func callAsFunction<A: LaneChannel, M: LaneChannel>(art: RGBAImage<A>, mask: RGBAImage<M>) throws(RenderError) {
        try renderer.shadeSweep(art: art, mask: mask, foilMap: foilMap, normals: normals, parameters: parameters,
                                into: &stack.pointee)
    }
}

/// The shaded faces of a batch of frames (front, back), kept between batches.
private final class FaceBuffers<C: ImageChannel> {
    var stacks = [FrameStack<C>(), FrameStack<C>()]
}

