import KiraGeometry
import KiraImage
import KiraShader

/// One face of the card: its art, its holo mask and its foil map (any sizes, either bit depth).
public struct CardFace: Sendable {
    public var art: AnyRGBAImage
    public var mask: AnyRGBAImage
    /// The height map of foils that read one (``/KiraShader/FoilShader/readsHeight``; without it they read the
    /// mask's): any size of the art's aspect ratio (``FaceMapShape``).
    public var foilMap: AnyRGBAImage?

    /// A face of these images; throws when one cannot be shaded (``validate()``).
    public init(art: AnyRGBAImage, mask: AnyRGBAImage, foilMap: AnyRGBAImage? = nil) throws(RenderError) {
        self.init(checkedArt: art, mask: mask, foilMap: foilMap)
        try validate()
    }

    /// A face whose images the caller knows to be valid (the built-in card's).
    package init(checkedArt art: AnyRGBAImage, mask: AnyRGBAImage, foilMap: AnyRGBAImage? = nil) {
        self.art = art
        self.mask = mask
        self.foilMap = foilMap
    }

    /// Throws when the face cannot be shaded: its art or mask has no pixels, an image's channels
    /// no longer match its size, or the foil map is empty or not of the art's aspect ratio.
    public func validate() throws(RenderError) {
        try validate(side: "")
    }

    /// ``validate()``, naming the images after `side` ("front art") when it is not empty.
    func validate(side: String) throws(RenderError) {
        func name(_ image: String) -> String { side.isEmpty ? image : side + " " + image }
        try art.checkChannels(name("art"))
        try mask.checkChannels(name("mask"))
        guard art.width > 0, art.height > 0 else { throw .emptyImage(name("art")) }
        guard mask.width > 0, mask.height > 0 else { throw .emptyImage(name("mask")) }
        if let foilMap {
            try foilMap.checkChannels(name("foil map"))
            try FaceMapShape.check(foilMap, art: SIMD2(art.width, art.height))
        }
    }

    /// The bytes of the face's images (a foil map that is the art's own buffer counted once).
    public var byteCount: Int {
        let map = foilMap.map { $0.sharesBuffer(with: art) ? 0 : $0.byteCount } ?? 0
        return art.byteCount + mask.byteCount + map
    }
}

/// What lies behind the card.
public enum FrameBackground: Sendable, Equatable {
    case transparent
    /// An opaque colour, channels in 0...1.
    case color(SIMD3<Float>)

    /// The colour in 8-bit channels, rounded to nearest (nil when transparent): what an output
    /// without alpha is matted onto.
    public var color8: SIMD3<UInt8>? {
        guard case .color(let color) = self else { return nil }
        let scaled = (color.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1)) * 255).rounded(.toNearestOrEven)
        return SIMD3<UInt8>(truncatingIfNeeded: SIMD3<Int32>(scaled))
    }

    /// The opaque colour `0xRRGGBB`: each 8-bit channel over 255, as `#RRGGBB` reads.
    public init(rgb: UInt32) {
        self = .color(SIMD3(Float(rgb >> 16 & 0xFF), Float(rgb >> 8 & 0xFF), Float(rgb & 0xFF)) / 255)
    }

    /// Premultiplied RGBA.
    var premultiplied: SIMD4<Float> {
        switch self {
        case .transparent: .zero
        case .color(let c): SIMD4(c.x, c.y, c.z, 1)
        }
    }
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
    /// The card's centre moved from the canvas's centre by this many canvas pixels: a fitted card
    /// centres what it draws, not the card at rest (``fitting(_:canvasWidth:canvasHeight:)``).
    public var cardOffset = SIMD2<Double>.zero

    /// A scene with the card centred on a canvas that fits it tilted by up to ±45°, or on a
    /// canvas of `canvasSize`. Throws when the scene cannot be drawn (``validate()``).
    public init(front: CardFace, back: CardFace, pose: CardPose = CardPose(),
                canvasSize: (width: Int, height: Int)? = nil, background: FrameBackground = .transparent,
                visibility: FaceVisibility = .orientation, parameters: KiraParameters = .seed,
                rotationConvention: Rotation.Convention = .seed) throws(RenderError) {
        self.front = front
        self.back = back
        self.pose = pose
        canvasWidth = canvasSize?.width ?? 1
        canvasHeight = canvasSize?.height ?? 1
        self.background = background
        self.visibility = visibility
        self.parameters = parameters
        self.rotationConvention = rotationConvention
        // The faces first: the default canvas is measured from the front's art.
        try validateContent()
        if canvasSize == nil {
            (canvasWidth, canvasHeight) = try Self.defaultCanvasSize(cardWidth: front.art.width, cardHeight: front.art.height)
        }
        try validatePlacement()
    }

    /// Throws when the scene cannot be drawn: what ``CardFace/validate()`` refuses in either face;
    /// a pose, flip angle or offset that is NaN or infinite; a background colour outside 0...1; a scale that is not a
    /// finite number above 0; a canvas with no pixels or over ``/KiraImage/ImageLimits/standard``;
    /// parameters out of their ranges. ``FrameRenderer`` checks every scene it is given.
    public func validate() throws(RenderError) {
        try validateContent()
        try validatePlacement()
    }

    /// The checks of ``validate()`` that do not depend on where the card is placed: the faces,
    /// the pose, the background, the visibility and the parameters.
    func validateContent() throws(RenderError) {
        try front.validate(side: "front")
        try back.validate(side: "back")
        try requireFinite(pose.tiltX, "pose.tiltX")
        try requireFinite(pose.tiltY, "pose.tiltY")
        try requireFinite(pose.flip, "pose.flip")
        try requireFinite(pose.flipPerspective, "pose.flipPerspective")
        try requireFinite(pose.tiltPerspective, "pose.tiltPerspective")
        // The compositor blends the colour as it is: outside 0...1 it is no colour.
        if case .color(let color) = background,
           !(0...1).contains(color.x) || !(0...1).contains(color.y) || !(0...1).contains(color.z) {
            throw .invalidColor(color)
        }
        if case .separateFaces(let front, let back) = visibility {
            try requireFinite(front, "visibility.front")
            try requireFinite(back, "visibility.back")
        }
        if let problem = parameters.problem { throw .invalidParameters(problem) }
    }

    /// The checks of ``validate()`` of the canvas and the card's place on it.
    func validatePlacement() throws(RenderError) {
        try Self.checkCanvas(width: canvasWidth, height: canvasHeight)
        guard cardScale.isFinite, cardScale > 0 else { throw .invalidScale(cardScale) }
        try requireFinite(cardOffset.x, "cardOffset.x")
        try requireFinite(cardOffset.y, "cardOffset.y")
    }

    /// Refuses a canvas with a negative side or over the limits, then one with no pixels (as
    /// before the limits were the library's: ``RenderError/emptyImage(_:)``).
    static func checkCanvas(width: Int, height: Int) throws(RenderError) {
        do {
            try ImageLimits.standard.check(width: width, height: height)
        } catch {
            throw .invalidImage("canvas", error)
        }
        guard width > 0, height > 0 else { throw .emptyImage("canvas") }
    }

    /// The smallest canvas (with the card's parity, so the card sits on whole pixels) that holds
    /// the card tilted by up to ±45° about x and y with the default perspective, within
    /// `limits` (Kira's image limits by default, so that Kira can read what it writes; limits
    /// beyond ``/KiraImage/ImageLimits/standard`` are taken as it): a card too large for that
    /// gets the room that fits, its margins shrunk alike on both axes (a strong tilt may then
    /// leave the canvas), never less than the card itself. Throws when the card has no pixels or
    /// is over the standard limits.
    public static func defaultCanvasSize(cardWidth: Int, cardHeight: Int,
                                         limits: ImageLimits = .standard) throws(RenderError) -> (width: Int, height: Int) {
        do {
            try ImageLimits.standard.check(width: cardWidth, height: cardHeight)
        } catch {
            throw .invalidImage("card", error)
        }
        guard cardWidth > 0, cardHeight > 0 else { throw .emptyImage("card") }
        // Within the standard limits, every sum and product below fits in an Int.
        let standard = ImageLimits.standard
        let limits = ImageLimits(maxSide: min(max(limits.maxSide, 1), standard.maxSide),
                                 maxPixels: min(max(limits.maxPixels, 1), standard.maxPixels))
        let full = roomForTilt(cardWidth: cardWidth, cardHeight: cardHeight)
        func size(_ share: Double) -> (width: Int, height: Int) {
            func side(_ room: Int, _ card: Int) -> Int {
                let n = card + Int(Double(room - card) * share)
                let capped = max(card, min(n, limits.maxSide - (limits.maxSide - card) % 2))
                return capped - (capped - card) % 2
            }
            return (side(full.width, cardWidth), side(full.height, cardHeight))
        }
        func fits(_ s: (width: Int, height: Int)) -> Bool { s.width * s.height <= limits.maxPixels }
        if fits(size(1)) { return size(1) }
        // The largest share of the margins that fits.
        var low = 0.0, high = 1.0
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if fits(size(middle)) { low = middle } else { high = middle }
        }
        return size(low)
    }

    /// The canvas that holds the card tilted by up to ±45°, whatever its size.
    static func roomForTilt(cardWidth: Int, cardHeight: Int) -> (width: Int, height: Int) {
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
    /// Wrapping subtraction: the sizes are variables, and a scene that ``validate()`` refuses must
    /// not trap here either (a valid scene's sizes are far from overflowing).
    public var cardOrigin: SIMD2<Int> {
        SIMD2((canvasWidth &- front.art.width) / 2, (canvasHeight &- front.art.height) / 2)
    }

    /// The faces to draw, bottom first (``FaceVisibility``'s policy), mapped onto the canvas.
    func layers() -> FaceLayers {
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        return visibility.layers(pose: pose, size: card, toCanvas: cardToCanvas, convention: rotationConvention)
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

extension AnyRGBAImage {
    /// Throws when the channels no longer match the size (``/KiraImage/RGBAImage/checkChannels()``),
    /// naming the image `name`.
    func checkChannels(_ name: String) throws(RenderError) {
        do {
            switch self {
            case .rgba8(let image): try image.checkChannels()
            case .rgba16(let image): try image.checkChannels()
            }
        } catch {
            throw .invalidImage(name, error)
        }
    }
}

/// Throws when `value`, the property `name`, is NaN or infinite.
@inline(__always)
func requireFinite(_ value: Double, _ name: String) throws(RenderError) {
    guard value.isFinite else { throw .nonFinite(name, value) }
}

extension CardFace {
    func sharesBuffers(with other: CardFace) -> Bool {
        guard art.sharesBuffer(with: other.art), mask.sharesBuffer(with: other.mask) else { return false }
        switch (foilMap, other.foilMap) {
        case (nil, nil): return true
        case (let a?, let b?): return a.sharesBuffer(with: b)
        default: return false
        }
    }
}

extension AnyRGBAImage {
    /// Same size and the same channel storage (not merely equal pixels: that would cost a full
    /// comparison).
    package func sharesBuffer(with other: AnyRGBAImage) -> Bool {
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
