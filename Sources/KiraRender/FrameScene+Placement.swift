import KiraGeometry
import KiraImage
import KiraShader

extension FrameScene {
    /// The map from the card's view (card pixels) to the canvas: the card centred, moved by
    /// ``cardOffset``, at ``cardScale`` about its centre. At scale 1 and no offset the card sits on
    /// whole pixels (``cardOrigin``), so an unscaled render samples the shaded face without
    /// resampling it.
    var cardToCanvas: Homography {
        guard cardScale != 1 || cardOffset != .zero else {
            return Homography.translation(SIMD2(Double(cardOrigin.x), Double(cardOrigin.y)))
        }
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        let canvas = SIMD2(Double(canvasWidth), Double(canvasHeight))
        let offset = canvas / 2 - card / 2 * cardScale + cardOffset
        // Row vectors (p · M), as every Homography here: the translation is the last row.
        return Homography(rows: SIMD3(cardScale, 0, 0), SIMD3(0, cardScale, 0), SIMD3(offset.x, offset.y, 1))
    }

    /// Where the faces this scene draws reach at its pose, whatever the canvas, scale and offset:
    /// the corners of every face drawn (``/KiraGeometry/FaceVisibility``'s layers with some opacity, in front
    /// of the eye). Nil when none is.
    public var drawnExtent: DrawnExtent? {
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        let layers = visibility.layers(pose: pose, size: card, toCanvas: .identity, convention: rotationConvention)
        var extent: DrawnExtent?
        for index in layers.startIndex..<layers.endIndex where layers[index].opacity > 0 {
            let map = layers[index].homography
            let corners = [SIMD2(0, 0), SIMD2(card.x, 0), card, SIMD2(0, card.y)].compactMap { map.apply($0) }
            // A face reaching behind the eye is not drawn.
            guard corners.count == 4 else { continue }
            let face = DrawnExtent(low: corners.reduce(corners[0], pointwiseMin) - card / 2,
                                   high: corners.reduce(corners[0], pointwiseMax) - card / 2)
            extent = extent.map { $0.union(face) } ?? face
        }
        return extent
    }

    /// `extent` on this scene's canvas, in canvas pixels (where its scale and offset put it).
    public func canvasBounds(of extent: DrawnExtent) -> DrawnExtent {
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        let map = cardToCanvas
        // Scale and translation only: the corners stay the corners.
        return DrawnExtent(low: map.apply(card / 2 + extent.low) ?? extent.low,
                           high: map.apply(card / 2 + extent.high) ?? extent.high)
    }

    /// Whether the faces drawn reach more than half a pixel beyond the canvas.
    public var isCropped: Bool {
        guard let extent = drawnExtent else { return false }
        let bounds = canvasBounds(of: extent)
        return bounds.low.x < -0.5 || bounds.low.y < -0.5
            || bounds.high.x > Double(canvasWidth) + 0.5 || bounds.high.y > Double(canvasHeight) + 0.5
    }

    /// The margin a fitted card keeps on every side: this share of the canvas's shorter side,
    /// at least a pixel (room for the edge pixels the card covers in part).
    public static let fitMargin = 0.04

    /// The scale and offset (``cardScale``, ``cardOffset``) at which `extent` fills a canvas of
    /// `width × height`, centred, less ``fitMargin`` on every side: within the scales `--scale`
    /// takes, 0.01…4.
    public static func fitting(_ extent: DrawnExtent, canvasWidth: Int, canvasHeight: Int) -> (scale: Double, offset: SIMD2<Double>) {
        let canvas = SIMD2(Double(canvasWidth), Double(canvasHeight))
        let margin = max(1, fitMargin * min(canvas.x, canvas.y))
        let room = canvas - 2 * margin
        let size = pointwiseMax(extent.size, SIMD2(repeating: 1e-9))
        let scale = min(4, max(0.01, min(room.x / size.x, room.y / size.y)))
        // The extent's centre goes to the canvas's centre.
        return (scale, -(extent.low + extent.high) / 2 * scale)
    }

    /// Places the card on `scenes`, the frames one canvas shows (a still, or every frame of an
    /// animation): their canvas size, and the card's scale and offset, the same for all.
    ///
    /// - `size` nil: the card plus room for a ±45° tilt (``defaultCanvasSize(cardWidth:cardHeight:limits:)``),
    ///   scaled with `scale`.
    /// - `fit`: the card scaled so that what the scenes draw (at their poses, over every frame)
    ///   fills `size`, centred, less ``fitMargin`` on every side (``fitting(_:canvasWidth:canvasHeight:)``);
    ///   a face seen edge-on in every frame fits the card at rest.
    /// - Otherwise the card at `scale` (nil is 1) in the middle of `size`.
    ///
    /// Throws, leaving `scenes` as they were, when a scene's faces, pose, background or
    /// parameters cannot be drawn (``validate()``), when `size` has no pixels or is over
    /// ``/KiraImage/ImageLimits/standard``, when `scale` is not a finite number above 0, or when
    /// the scaled default canvas is over the limits.
    public static func place(_ scenes: inout [FrameScene], size: (width: Int, height: Int)?, scale: Double?,
                             fit: Bool) throws(RenderError) {
        guard let first = scenes.first else { return }
        for scene in scenes { try scene.validateContent() }
        if let size { try checkCanvas(width: size.width, height: size.height) }
        if let scale, !(scale.isFinite && scale > 0) { throw .invalidScale(scale) }
        let card = (width: first.front.art.width, height: first.front.art.height)
        let placed: (size: (width: Int, height: Int), scale: Double, offset: SIMD2<Double>)
        if let size {
            if fit {
                let drawn = scenes.lazy.compactMap { $0.drawnExtent }.reduce(nil) { $0?.union($1) ?? $1 }
                let extent = drawn ?? DrawnExtent(low: -SIMD2(Double(card.width), Double(card.height)) / 2,
                                                  high: SIMD2(Double(card.width), Double(card.height)) / 2)
                let fitted = fitting(extent, canvasWidth: size.width, canvasHeight: size.height)
                placed = (size, fitted.scale, fitted.offset)
            } else {
                placed = (size, scale ?? 1, .zero)
            }
        } else {
            let room = try defaultCanvasSize(cardWidth: card.width, cardHeight: card.height)
            if let scale, scale != 1 {
                placed = (try scaledCanvas(room, by: scale), scale, .zero)
            } else {
                placed = (room, 1, .zero)
            }
        }
        // A fitted offset comes from the faces' corners, which a pose that nearly reaches the
        // eye throws far: refused here rather than by the renderer, under another name.
        try requireFinite(placed.offset.x, "cardOffset.x")
        try requireFinite(placed.offset.y, "cardOffset.y")
        for i in scenes.indices {
            scenes[i].canvasWidth = placed.size.width
            scenes[i].canvasHeight = placed.size.height
            scenes[i].cardScale = placed.scale
            scenes[i].cardOffset = placed.offset
        }
    }

    /// The default canvas `room` scaled by `scale` (finite, above 0), at least a pixel a side;
    /// throws when it is over the limits. The sides are compared as doubles first: a large scale
    /// would not fit in an `Int`.
    private static func scaledCanvas(_ room: (width: Int, height: Int), by scale: Double) throws(RenderError) -> (width: Int, height: Int) {
        let width = (Double(room.width) * scale).rounded(), height = (Double(room.height) * scale).rounded()
        let maxSide = Double(ImageLimits.standard.maxSide)
        guard width <= maxSide, height <= maxSide else {
            func side(_ value: Double) -> Int { value <= maxSide ? Int(value) : ImageLimits.standard.maxSide + 1 }
            throw .invalidImage("canvas", .tooLarge(width: side(width), height: side(height), limits: .standard))
        }
        let size = (width: max(1, Int(width)), height: max(1, Int(height)))
        try checkCanvas(width: size.width, height: size.height)
        return size
    }

    /// The frame of `front` and `back` at `pose`, placed on its canvas as
    /// ``place(_:size:scale:fit:)`` places a still: what `kira render` draws for these values.
    /// Throws what ``place(_:size:scale:fit:)`` and ``init(front:back:pose:canvasSize:background:visibility:parameters:rotationConvention:)`` throw.
    public static func placed(front: CardFace, back: CardFace, pose: CardPose, size: (width: Int, height: Int)?,
                              scale: Double?, fit: Bool, background: FrameBackground, visibility: FaceVisibility,
                              parameters: KiraParameters, rotationConvention: Rotation.Convention) throws(RenderError) -> FrameScene {
        var scenes = [try FrameScene(front: front, back: back, pose: pose, canvasSize: (1, 1), background: background,
                                     visibility: visibility, parameters: parameters, rotationConvention: rotationConvention)]
        try place(&scenes, size: size, scale: scale, fit: fit)
        return scenes[0]
    }
}
