import CKiraLanes
import KiraGeometry
import KiraImage
import KiraShader

/// One face of the card: its art and its holo mask (any sizes, either bit depth).
public struct CardFace: Sendable {
    public var art: AnyRGBAImage
    public var mask: AnyRGBAImage

    public init(art: AnyRGBAImage, mask: AnyRGBAImage) {
        self.art = art
        self.mask = mask
    }
}

/// What lies behind the card.
public enum FrameBackground: Sendable, Equatable {
    case transparent
    /// An opaque colour, channels in 0...1.
    case color(SIMD3<Float>)

    /// Premultiplied RGBA.
    var premultiplied: SIMD4<Float> {
        switch self {
        case .transparent: .zero
        case .color(let c): SIMD4(c.x, c.y, c.z, 1)
        }
    }
}

/// One face to draw: which side, shaded with which normal, placed by which homography (card
/// points to canvas), at which opacity.
struct FaceLayer {
    let side: CardSide
    let normal: SIMD3<Float>
    let homography: Homography
    let opacity: Float
}

/// A frame to render: the card, its pose, and the canvas around it.
public struct FrameScene: Sendable {
    public var front: CardFace
    public var back: CardFace
    public var pose: CardPose
    public var canvasWidth: Int
    public var canvasHeight: Int
    public var background: FrameBackground
    public var visibility: FaceVisibility
    public var parameters: KiraParameters
    public var rotationConvention: Rotation.Convention
    /// The card's size on the canvas, as a factor about its centre (1: one face pixel per canvas
    /// pixel); below 1 a small canvas shows the whole card instead of cropping it.
    public var cardScale: Double = 1

    /// A scene with the card centred on a canvas that fits it tilted by up to ±45°.
    public init(front: CardFace, back: CardFace, pose: CardPose = CardPose(),
                canvasSize: (width: Int, height: Int)? = nil, background: FrameBackground = .transparent,
                visibility: FaceVisibility = .orientation, parameters: KiraParameters = .seed,
                rotationConvention: Rotation.Convention = .seed) {
        self.front = front
        self.back = back
        self.pose = pose
        let size = canvasSize ?? Self.defaultCanvasSize(cardWidth: front.art.width, cardHeight: front.art.height)
        canvasWidth = size.width
        canvasHeight = size.height
        self.background = background
        self.visibility = visibility
        self.parameters = parameters
        self.rotationConvention = rotationConvention
    }

    /// The smallest canvas (with the card's parity, so the card sits on whole pixels) that holds
    /// the card tilted by up to ±45° about x and y with the default perspective.
    public static func defaultCanvasSize(cardWidth: Int, cardHeight: Int) -> (width: Int, height: Int) {
        let size = SIMD2(Double(cardWidth), Double(cardHeight))
        var extent = size / 2
        for tx in stride(from: -45.0, through: 45, by: 15) {
            for ty in stride(from: -45.0, through: 45, by: 15) {
                let h = CardPose(tiltX: tx, tiltY: ty).cardHomography(size: size)
                for corner in [SIMD2(0, 0), SIMD2(size.x, 0), SIMD2(0, size.y), size] {
                    guard let p = h.apply(corner) else { continue }
                    extent.x = max(extent.x, abs(p.x - size.x / 2))
                    extent.y = max(extent.y, abs(p.y - size.y / 2))
                }
            }
        }
        func fit(_ half: Double, _ card: Int) -> Int {
            let n = Int((2 * half).rounded(.up)) + 2
            return n + (n - card) % 2
        }
        return (fit(extent.x, cardWidth), fit(extent.y, cardHeight))
    }

    /// Where the card's top-left corner sits on the canvas: centred, on whole pixels.
    public var cardOrigin: SIMD2<Int> {
        SIMD2((canvasWidth - front.art.width) / 2, (canvasHeight - front.art.height) / 2)
    }

    /// The faces to draw, bottom first.
    func layers() -> [FaceLayer] {
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        let toCanvas = cardToCanvas
        let normal = pose.normal(convention: rotationConvention)
        let frontMap = pose.frontHomography(size: card).then(toCanvas)
        let backMap = pose.backHomography(size: card).then(toCanvas)
        switch visibility {
        case .orientation:
            if frontMap.preservesOrientation { return [FaceLayer(side: .front, normal: normal, homography: frontMap, opacity: 1)] }
            if backMap.preservesOrientation { return [FaceLayer(side: .back, normal: -normal, homography: backMap, opacity: 1)] }
            return []
        case .crossfade, .crossfadeBackUnder:
            let progress = Float(min(max(pose.flip / 180, 0), 1))
            let front = FaceLayer(side: .front, normal: normal, homography: frontMap, opacity: 1 - progress)
            let back = FaceLayer(side: .back, normal: -normal, homography: backMap, opacity: progress)
            return visibility == .crossfade ? [front, back] : [back, front]
        case .switchAtQuarterTurn:
            // The angle decides, as the seed's AnimatableModifier does (`rotationAngle < 90`).
            let turned = abs(pose.flip.truncatingRemainder(dividingBy: 360))
            let showsFront = turned < 90 || turned > 270
            return [FaceLayer(side: showsFront ? .front : .back, normal: showsFront ? normal : -normal,
                              homography: frontMap, opacity: 1)]
        case .separateFaces(let frontAngle, let backAngle):
            func map(_ degrees: Double) -> Homography {
                var turned = pose
                turned.flip = degrees
                return turned.cardHomography(size: card).then(toCanvas)
            }
            let backTurned = map(backAngle), frontTurned = map(frontAngle)
            var layers: [FaceLayer] = []
            if backTurned.preservesOrientation { layers.append(FaceLayer(side: .back, normal: -normal, homography: backTurned, opacity: 1)) }
            if frontTurned.preservesOrientation { layers.append(FaceLayer(side: .front, normal: normal, homography: frontTurned, opacity: 1)) }
            return layers
        }
    }
}

/// Renders the card as SwiftUI shows it: each visible face shaded flat by the kira shader, then
/// projected through its `rotation3DEffect` homographies onto the canvas.
///
/// Everything is premultiplied, as in SwiftUI and Core Animation: the shader reads the art
/// premultiplied and its result is kept premultiplied (so the shine also lights transparent art,
/// as `layerEffect` does), every canvas pixel maps back through the inverse homography and samples
/// the shaded face bilinearly as stored (clamped to the face; transparent texels bleed no colour),
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
        /// ``ReferenceRenderer``, the plain scalar port of the seed: slow, for golden images.
        case reference
    }

    /// Which shader path shades the faces; the projection is the same for both.
    public var faceShading = FaceShading.fast

    /// How faces are projected onto the canvas and composited.
    package enum ProjectionPath: Sendable {
        /// Sixteen canvas pixels at a time (``LaneProjectionJob``), the default.
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

    public init(threads: Int = TileScheduler.processorCount, tileRows: Int = 16) {
        shader = ShadeRenderer(threads: threads, tileRows: tileRows)
    }

    deinit { rowScratch?.deallocate() }

    /// Renders `scene` into `output`, which takes the canvas size.
    public func render<Out: LaneChannel>(_ scene: FrameScene, into output: inout RGBAImage<Out>) throws(RenderError) {
        var outputs = [output]
        output = RGBAImage(width: 0, height: 0)  // keep the buffer uniquely referenced in `outputs`
        try render([scene], into: &outputs)
        output = outputs[0]
    }

    /// Renders several frames of one card: each output is what ``render(_:into:)`` gives for its
    /// scene, byte for byte.
    ///
    /// When the scenes share their faces (the same art and mask buffers, as the frames of an
    /// animation do), each side is shaded for all the frames in one sweep
    /// (``ShadeRenderer/shade(art:mask:normals:parameters:into:)``), so the work that does not
    /// depend on the tilt is done once per pixel for the whole batch.
    public func render<Out: LaneChannel>(_ scenes: [FrameScene], into outputs: inout [RGBAImage<Out>]) throws(RenderError) {
        guard let first = scenes.first else {
            outputs = []
            return
        }
        for scene in scenes where scene.canvasWidth <= 0 || scene.canvasHeight <= 0 { throw RenderError.emptyImage("canvas") }
        guard scenes.allSatisfy({ $0.sharesFaces(with: first) }) else {
            // Faces differ: no sweep to share, render the scenes one by one.
            var result: [RGBAImage<Out>] = []
            for scene in scenes {
                var frames = [RGBAImage<Out>(width: 0, height: 0)]
                try render([scene], into: &frames)
                result.append(frames[0])
            }
            outputs = result
            return
        }
        let layers = scenes.map { $0.layers().filter { $0.opacity > 0 } }

        // Shade every layer: one sweep per side, frame `k` of a stack for the `k`-th layer of that side.
        let buffers: FaceBuffers<Out> = faceBuffers()
        var stackIndex: [[Int]] = []
        var normals: [CardSide: [SIMD3<Float>]] = [.front: [], .back: []]
        for frameLayers in layers {
            stackIndex.append(frameLayers.map { layer in
                normals[layer.side]!.append(layer.normal)
                return normals[layer.side]!.count - 1
            })
        }
        for side in [CardSide.front, .back] where !normals[side]!.isEmpty {
            let face = side == .front ? first.front : first.back
            try shadeSweep(face, normals: normals[side]!, parameters: first.parameters,
                           into: &buffers.stacks[side == .front ? 0 : 1])
        }

        if outputs.count != scenes.count { outputs = scenes.map { _ in RGBAImage(width: 0, height: 0) } }
        let card = SIMD2(Double(first.front.art.width), Double(first.front.art.height))
        let fronts = buffers.stacks[0], backs = buffers.stacks[1]
        fronts.channels.withUnsafeBufferPointer { frontChannels in
            backs.channels.withUnsafeBufferPointer { backChannels in
                for (i, scene) in scenes.enumerated() {
                    var projections: [FaceProjection] = []
                    var faces: [UnsafeRawPointer] = []
                    for (j, layer) in layers[i].enumerated() {
                        let stack = layer.side == .front ? fronts : backs
                        let channels = layer.side == .front ? frontChannels : backChannels
                        // Face pixels to card points (a back of another size is stretched over
                        // the card), then onto the canvas.
                        let scale = Homography(rows: SIMD3(card.x / Double(stack.width), 0, 0),
                                               SIMD3(0, card.y / Double(stack.height), 0), SIMD3(0, 0, 1))
                        if let projection = FaceProjection(
                            homography: scale.then(layer.homography), faceSize: SIMD2(stack.width, stack.height),
                            opacity: layer.opacity, canvas: SIMD2(scene.canvasWidth, scene.canvasHeight)) {
                            projections.append(projection)
                            faces.append(UnsafeRawPointer(channels.baseAddress! + stackIndex[i][j] * stack.frameChannels))
                        }
                    }
                    if outputs[i].width != scene.canvasWidth || outputs[i].height != scene.canvasHeight {
                        outputs[i] = RGBAImage(width: scene.canvasWidth, height: scene.canvasHeight)
                    }
                    project(projections, faces: faces, background: scene.background.premultiplied, into: &outputs[i])
                }
            }
        }
    }

    private func shadeSweep<Out: LaneChannel>(
        _ face: CardFace, normals: [SIMD3<Float>], parameters: KiraParameters, into stack: inout FrameStack<Out>
    ) throws(RenderError) {
        switch (face.art, face.mask) {
        case (.rgba8(let a), .rgba8(let m)): try shadeSweep(art: a, mask: m, normals: normals, parameters: parameters, into: &stack)
        case (.rgba8(let a), .rgba16(let m)): try shadeSweep(art: a, mask: m, normals: normals, parameters: parameters, into: &stack)
        case (.rgba16(let a), .rgba8(let m)): try shadeSweep(art: a, mask: m, normals: normals, parameters: parameters, into: &stack)
        case (.rgba16(let a), .rgba16(let m)): try shadeSweep(art: a, mask: m, normals: normals, parameters: parameters, into: &stack)
        }
    }

    private func shadeSweep<In: LaneChannel, M: LaneChannel, Out: LaneChannel>(
        art: RGBAImage<In>, mask: RGBAImage<M>, normals: [SIMD3<Float>], parameters: KiraParameters,
        into stack: inout FrameStack<Out>
    ) throws(RenderError) {
        switch faceShading {
        case .fast:
            try shader.shade(art: art, mask: mask, normals: normals, parameters: parameters, premultiplied: true,
                             into: &stack)
        case .reference:
            if stack.width != art.width || stack.height != art.height || stack.count != normals.count {
                stack = FrameStack(width: art.width, height: art.height, count: normals.count)
            }
            for (k, normal) in normals.enumerated() {
                let face = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, parameters: parameters,
                                                       premultiplied: true, as: Out.self)
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

    private func project<Out: LaneChannel>(
        _ projections: [FaceProjection], faces: [UnsafeRawPointer], background: SIMD4<Float>,
        into output: inout RGBAImage<Out>
    ) {
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
                let outBytes = UnsafeMutableRawPointer(out.baseAddress!)
                if projectionPath == .lanes, LaneProjectionJob.canProject(projections) {
                    var job = LaneProjectionJob(
                        projections: projections, faces: faces.baseAddress!, output: outBytes, depth: Out.bitDepth,
                        width: width, height: output.height, tileRows: tileRows, background: background)
                    withUnsafeMutablePointer(to: &job) { job in
                        scheduler.run(tiles: tiles, context: job) { job, tile, _ in
                            job.assumingMemoryBound(to: LaneProjectionJob.self).pointee.run(tile: tile)
                        }
                    }
                    return
                }
                var job = ScalarProjectionJob(
                    projections: projections, faces: faces.baseAddress!,
                    output: outBytes, depth: Out.bitDepth, width: width,
                    height: output.height, tileRows: tileRows, background: background, scratch: rowScratch!)
                withUnsafeMutablePointer(to: &job) { job in
                    scheduler.run(tiles: tiles, context: job) { job, tile, worker in
                        job.assumingMemoryBound(to: ScalarProjectionJob.self).pointee.run(tile: tile, worker: worker)
                    }
                }
            }
        }
    }
}

/// The shaded faces of a batch of frames (front, back), kept between batches.
private final class FaceBuffers<C: ImageChannel> {
    var stacks = [FrameStack<C>(width: 0, height: 0, count: 0), FrameStack<C>(width: 0, height: 0, count: 0)]
}

/// A face placed on the canvas: the inverse map, the quad it covers and its opacity.
struct FaceProjection {
    /// Canvas points to face pixels.
    let inverse: Homography
    let faceSize: SIMD2<Int>
    let opacity: Float
    /// Inward edge lines of the quad, `a·x + b·y + c ≥ 0` inside, normalised so that the value is
    /// the distance in pixels.
    let edges: [SIMD3<Double>]
    /// Rows and columns the quad touches.
    let rows: Range<Int>
    let columns: Range<Int>

    /// Nil when the face is edge-on (no area) or reaches behind the eye.
    init?(homography: Homography, faceSize: SIMD2<Int>, opacity: Float, canvas: SIMD2<Int>) {
        let size = SIMD2(Double(faceSize.x), Double(faceSize.y))
        let corners = [SIMD2(0, 0), SIMD2(size.x, 0), size, SIMD2(0, size.y)].compactMap { homography.apply($0) }
        guard corners.count == 4, let inverse = homography.inverse else { return nil }
        var area = 0.0
        for i in 0..<4 {
            let p = corners[i], q = corners[(i + 1) % 4]
            area += p.x * q.y - q.x * p.y
        }
        guard abs(area) > 1e-9 else { return nil }
        let sign: Double = area > 0 ? 1 : -1
        var edges: [SIMD3<Double>] = []
        for i in 0..<4 {
            let p = corners[i], q = corners[(i + 1) % 4]
            let d = q - p
            let length = (d * d).sum().squareRoot()
            guard length > 0 else { return nil }
            // Left of p→q is inside for a counter-clockwise quad (in y-down coordinates, area > 0).
            let a = -d.y * sign / length, b = d.x * sign / length
            edges.append(SIMD3(a, b, -(a * p.x + b * p.y)))
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(canvas.x, Int(xs.max()!.rounded(.up)) + 1)
        let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(canvas.y, Int(ys.max()!.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return nil }
        self.inverse = inverse
        self.faceSize = faceSize
        self.opacity = opacity
        self.edges = edges
        rows = y0..<y1
        columns = x0..<x1
    }

    /// The columns of row `y` whose pixel the quad may touch (`covered`), and those whose whole
    /// pixel lies inside every edge (`inside`, a sub-range): a convex quad meets a row in one run.
    func spans(y: Int) -> (covered: Range<Int>, inside: Range<Int>) {
        let cy = Double(y) + 0.5
        // Half the pixel's diagonal: a pixel whose centre is this far inside (outside) an edge is
        // wholly inside (outside) it.
        let reach = 0.7072
        var covered = (lower: Double(columns.lowerBound), upper: Double(columns.upperBound))
        var inside = covered
        for e in edges {
            // Along the row the edge value is linear in x: e.x * (x + 0.5) + base.
            let base = e.y * cy + e.z + e.x * 0.5
            if e.x == 0 {
                if base <= -reach { return (columns.lowerBound..<columns.lowerBound, columns.lowerBound..<columns.lowerBound) }
                if base < reach { inside = (0, 0) }
                continue
            }
            // x where the value reaches -reach (touching) and +reach (wholly inside).
            let touch = (-reach - base) / e.x, whole = (reach - base) / e.x
            if e.x > 0 {
                covered.lower = max(covered.lower, touch.rounded(.down))
                inside.lower = max(inside.lower, whole.rounded(.up))
            } else {
                covered.upper = min(covered.upper, touch.rounded(.up) + 1)
                inside.upper = min(inside.upper, whole.rounded(.down) + 1)
            }
        }
        let c0 = Int(max(covered.lower, Double(columns.lowerBound)))
        let c1 = Int(min(covered.upper, Double(columns.upperBound)))
        guard c0 < c1 else { return (c0..<c0, c0..<c0) }
        let i0 = min(max(Int(max(inside.lower, Double(c0))), c0), c1)
        let i1 = max(min(Int(min(inside.upper, Double(c1))), c1), i0)
        return (c0..<c1, i0..<i1)
    }

    /// The share of the pixel square at (`x`, `y`) that the quad covers, exactly.
    func coverage(x: Int, y: Int) -> Double {
        let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
        var nearest = Double.infinity
        for e in edges {
            let d = e.x * centre.x + e.y * centre.y + e.z
            if d <= -0.7072 { return 0 }  // the whole pixel is outside this edge
            nearest = min(nearest, d)
        }
        if nearest >= 0.7072 { return 1 }  // the whole pixel is inside every edge
        // Clip the pixel square by each edge (Sutherland–Hodgman) and measure what is left. A
        // square clipped by four lines has at most eight corners; two stack buffers ping-pong.
        return withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 32) { buffer in
            var polygon = buffer.baseAddress!, clipped = polygon + 16
            polygon[0] = SIMD2(Double(x), Double(y))
            polygon[1] = SIMD2(Double(x + 1), Double(y))
            polygon[2] = SIMD2(Double(x + 1), Double(y + 1))
            polygon[3] = SIMD2(Double(x), Double(y + 1))
            var count = 4
            for e in edges {
                var kept = 0
                for i in 0..<count {
                    let p = polygon[i], q = polygon[(i + 1) % count]
                    let dp = e.x * p.x + e.y * p.y + e.z, dq = e.x * q.x + e.y * q.y + e.z
                    if dp >= 0 {
                        clipped[kept] = p
                        kept += 1
                    }
                    if (dp >= 0) != (dq >= 0) {
                        clipped[kept] = p + (q - p) * (dp / (dp - dq))
                        kept += 1
                    }
                }
                swap(&polygon, &clipped)
                count = kept
                if count == 0 { return 0 }
            }
            var area = 0.0
            for i in 0..<count {
                let p = polygon[i], q = polygon[(i + 1) % count]
                area += p.x * q.y - q.x * p.y
            }
            return min(1, abs(area) / 2)
        }
    }
}

/// The projection work of one frame, shared by the workers, one pixel at a time: the reference
/// for ``LaneProjectionJob``.
private struct ScalarProjectionJob: @unchecked Sendable {
    let projections: [FaceProjection]
    /// The shaded face of each projection, and the canvas, with channels of `depth` bits.
    let faces: UnsafePointer<UnsafeRawPointer>
    let output: UnsafeMutableRawPointer
    let depth: Int
    let width: Int
    let height: Int
    let tileRows: Int
    let background: SIMD4<Float>
    let scratch: UnsafeMutablePointer<Float>

    func run(tile: Int, worker: Int) {
        if depth == 16 { run(tile: tile, worker: worker, UInt16.self) } else { run(tile: tile, worker: worker, UInt8.self) }
    }

    private func run<Out: LaneChannel>(tile: Int, worker: Int, _: Out.Type) {
        let row = scratch + worker * width * 4
        let out = output.assumingMemoryBound(to: Out.self)
        // The background as stored channels, for the pixels no face reaches.
        let scale: Float = background.w > 0 ? 1 / background.w : 0
        let plain = SIMD4(Out.quantize(background.x * scale), Out.quantize(background.y * scale),
                          Out.quantize(background.z * scale), Out.quantize(background.w))
        for y in (tile * tileRows)..<min((tile + 1) * tileRows, height) {
            // Only the columns some face may touch go through the float row buffer.
            var lower = width, upper = 0
            for projection in projections where projection.rows.contains(y) {
                let span = projection.spans(y: y).covered
                if !span.isEmpty {
                    lower = min(lower, span.lowerBound)
                    upper = max(upper, span.upperBound)
                }
            }
            let outRow = out + y * width * 4
            for x in 0..<width where x < lower || x >= upper {
                (outRow + 4 * x).withMemoryRebound(to: SIMD4<Out>.self, capacity: 1) { $0.pointee = plain }
            }
            guard lower < upper else { continue }
            for x in lower..<upper { (row + 4 * x).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = background } }
            for (index, projection) in projections.enumerated() where projection.rows.contains(y) {
                draw(projection, face: faces[index].assumingMemoryBound(to: Out.self), row: row, y: y)
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
        for x in spans.covered where !spans.inside.contains(x) {
            let coverage = projection.coverage(x: x, y: y)
            if coverage > 0 { blend(projection, face: face, row: row, x: x, y: y, weight: Float(coverage) * projection.opacity) }
        }
        for x in spans.inside {
            blend(projection, face: face, row: row, x: x, y: y, weight: projection.opacity)
        }
    }

    /// Samples the premultiplied face bilinearly (clamped to its edge texels) where canvas pixel
    /// (`x`, `y`) maps back to, and composites it with `weight` over the row buffer.
    @inline(__always)
    private func blend<Out: LaneChannel>(_ projection: FaceProjection, face: UnsafePointer<Out>,
                                         row: UnsafeMutablePointer<Float>, x: Int, y: Int, weight: Float) {
        let fw = projection.faceSize.x, fh = projection.faceSize.y
        let h = projection.inverse.homogeneous(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        let u = min(max(h.x / h.z - 0.5, 0), Double(fw - 1)), v = min(max(h.y / h.z - 0.5, 0), Double(fh - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, fw - 1), y1 = min(y0 + 1, fh - 1)
        let wx = Float(u - Double(x0)), wy = Float(v - Double(y0))
        // The face is premultiplied already (as SwiftUI's layers are): texels are interpolated
        // as stored, so transparent texels carry no colour into their neighbours.
        @inline(__always) func texel(_ tx: Int, _ ty: Int) -> SIMD4<Float> {
            let p = face + (ty * fw + tx) * 4
            return SIMD4(Out.normalized(p[0]), Out.normalized(p[1]), Out.normalized(p[2]), Out.normalized(p[3]))
        }
        let t00 = texel(x0, y0), t01 = texel(x1, y0), t10 = texel(x0, y1), t11 = texel(x1, y1)
        let t = t00 + (t01 - t00) * wx
        let b = t10 + (t11 - t10) * wx
        let color = t + (b - t) * wy
        let source = color * weight
        (row + 4 * x).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { dst in
            dst.pointee = source + dst.pointee * (1 - source.w)
        }
    }

    /// Writes `columns` of the row, un-premultiplied, as stored channels.
    private func store<Out: LaneChannel>(_ row: UnsafeMutablePointer<Float>, columns: Range<Int>,
                                         into out: UnsafeMutablePointer<Out>) {
        for x in columns {
            let pixel = UnsafeRawPointer(row + 4 * x).loadUnaligned(as: SIMD4<Float>.self)
            let a = pixel.w
            let scale: Float = a == 1 ? 1 : (a > 0 ? 1 / a : 0)
            var straight = pixel * scale
            straight.w = a
            // `Float.quantized(maxValue:)` on four channels at once: clamp, scale, round half to
            // even by the 1.5·2²³ trick (the values are below 2²²).
            let clamped = straight.replacing(with: 0, where: straight .< 0).replacing(with: 1, where: straight .> 1)
            let bits = unsafeBitCast(clamped * Out.maxFloat + 12_582_912, to: SIMD4<UInt32>.self) &- 0x4B40_0000
            (out + 4 * x).withMemoryRebound(to: SIMD4<Out>.self, capacity: 1) {
                $0.pointee = SIMD4<Out>(truncatingIfNeeded: bits)
            }
        }
    }
}

extension FrameScene {
    /// Whether `other` draws the same faces: the same art and mask buffers (the frames of one
    /// animation share them), so that they can be shaded in one sweep.
    func sharesFaces(with other: FrameScene) -> Bool {
        front.sharesBuffers(with: other.front) && back.sharesBuffers(with: other.back)
            && parameters == other.parameters
    }
}

extension CardFace {
    func sharesBuffers(with other: CardFace) -> Bool {
        art.sharesBuffer(with: other.art) && mask.sharesBuffer(with: other.mask)
    }
}

extension AnyRGBAImage {
    /// Same size and the same channel storage (not merely equal pixels: that would cost a full
    /// comparison).
    func sharesBuffer(with other: AnyRGBAImage) -> Bool {
        switch (self, other) {
        case (.rgba8(let a), .rgba8(let b)):
            a.width == b.width && a.height == b.height
                && a.channels.withUnsafeBufferPointer { pa in b.channels.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
        case (.rgba16(let a), .rgba16(let b)):
            a.width == b.width && a.height == b.height
                && a.channels.withUnsafeBufferPointer { pa in b.channels.withUnsafeBufferPointer { pb in pa.baseAddress == pb.baseAddress } }
        default:
            false
        }
    }
}
