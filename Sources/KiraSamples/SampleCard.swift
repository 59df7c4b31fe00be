import KiraImage

/// The procedural sample card: a front, a back and a holo mask that line up with each other.
///
/// Everything is drawn from signed distance functions in card millimetres (63 × 88 mm), so the
/// design scales to any size and is identical on every run. Stretched sizes stretch the design.
/// From 8 pixels wide up, the pixels in the four corners are fully transparent (black in the mask).
/// Every size must be at least a pixel a side and within ``/KiraImage/ImageLimits/standard``;
/// another is refused before anything is drawn.
public enum SampleCard {
    /// The default width in pixels: 10 pixels per millimetre of a 63 mm card.
    public static let width = 630
    /// The default height in pixels: 10 pixels per millimetre of an 88 mm card.
    public static let height = 880

    /// The peak memory of drawing one side at `width` × `height` and writing it as a PNG: the
    /// image, its PNG bytes (at most its raw size) and the drawing's scratch, 2.5 images in all
    /// (peaks measured with `/usr/bin/time` for all four sides: 36 MB at 1024², 74 MB at 2048²,
    /// 161 MB at 4096², against 4 MiB, 16 MiB and 64 MiB images).
    public static func estimatedPeakBytes(width: Int, height: Int) -> Int {
        let image = AnyRGBAImage.byteCount(width: width, height: height, channelBytes: 1)
        // Saturated as the byte count is: an estimate to compare against a budget.
        return image > Int.max / 5 ? Int.max : image * 5 / 2
    }

    /// Refuses a side under a pixel or a size over the limits.
    static func checkSize(width: Int, height: Int) throws(ImageError) {
        try ImageLimits.standard.check(width: width, height: height)
        guard width > 0, height > 0 else { throw .empty(width: width, height: height) }
    }

    /// The card front: frame, title bar, an illustrated art window and a text box, with
    /// transparent rounded corners.
    ///
    /// The art is kept to mid and dark tones because the holo shine is added on top of it.
    public static func front(width: Int = SampleCard.width, height: Int = SampleCard.height) throws(ImageError) -> RGBAImage<UInt8> {
        try checkSize(width: width, height: height)
        return drawnFront(width: width, height: height)
    }

    /// ``front(width:height:)`` at a size already checked.
    static func drawnFront(width: Int = SampleCard.width, height: Int = SampleCard.height) -> RGBAImage<UInt8> {
        Canvas.image(width: width, height: height) { canvas in drawFront(on: &canvas, layout: CardLayout(canvas)) }
    }

    /// The card back: a deep blue design symmetric about both axes except for a small mark in
    /// the top-left corner, which shows whether the back is drawn mirrored.
    public static func back(width: Int = SampleCard.width, height: Int = SampleCard.height) throws(ImageError) -> RGBAImage<UInt8> {
        try checkSize(width: width, height: height)
        return drawnBack(width: width, height: height)
    }

    /// ``back(width:height:)`` at a size already checked.
    static func drawnBack(width: Int = SampleCard.width, height: Int = SampleCard.height) -> RGBAImage<UInt8> {
        Canvas.image(width: width, height: height) { canvas in drawBack(on: &canvas, layout: CardLayout(canvas)) }
    }

    /// The holo mask for ``front(width:height:)``: opaque grey, white where the shine shows
    /// (the art window and the frame border) and black elsewhere, including outside the corners.
    public static func mask(width: Int = SampleCard.width, height: Int = SampleCard.height) throws(ImageError) -> RGBAImage<UInt8> {
        try checkSize(width: width, height: height)
        return drawnMask(width: width, height: height)
    }

    /// ``mask(width:height:)`` at a size already checked.
    static func drawnMask(width: Int = SampleCard.width, height: Int = SampleCard.height) -> RGBAImage<UInt8> {
        Canvas.image(width: width, height: height, background: .hex(0x000000), grey: true) { canvas in
            let layout = CardLayout(canvas)
            let white = Color.hex(0xFFFFFF)
            let card = layout.card, panel = layout.panel, art = layout.art
            canvas.fill(card.box, excluding: panel.innerBox, shape: { max(card.distance($0), -panel.distance($0)) },
                        color: white)
            canvas.fill(art.box, shape: art.distance, color: white)
        }
    }

    /// The holo mask for ``back(width:height:)``: the shine shows on the navy border and the
    /// medallion's ellipse, nowhere else.
    public static func backMask(width: Int = SampleCard.width, height: Int = SampleCard.height) throws(ImageError) -> RGBAImage<UInt8> {
        try checkSize(width: width, height: height)
        return drawnBackMask(width: width, height: height)
    }

    /// ``backMask(width:height:)`` at a size already checked.
    static func drawnBackMask(width: Int = SampleCard.width, height: Int = SampleCard.height) -> RGBAImage<UInt8> {
        Canvas.image(width: width, height: height, background: .hex(0x000000), grey: true) { canvas in
            let card = CardLayout(canvas).card
            let panel = backPanel(card)
            let white = Color.hex(0xFFFFFF)
            canvas.fill(card.box, shape: { max(card.distance($0), -panel.distance($0)) }, color: white)
            let radii = backMedallionRadii
            canvas.fill(Box(center: .zero, halfSize: radii + 1),
                        shape: { SDF.ellipse($0, center: .zero, radii: radii) }, color: white)
        }
    }
}

/// Where the parts of the front sit, shared by the front and the mask so the shine lands exactly
/// on the art window and the frame.
struct CardLayout {
    /// The whole card.
    let card: RoundedRect
    /// The cream panel inside the coloured frame border.
    let panel: RoundedRect
    let titleBar: RoundedRect
    /// The illustration itself.
    let art: RoundedRect
    /// The gold bevel around the illustration.
    let artFrame: RoundedRect
    let textBox: RoundedRect

    init(_ canvas: Canvas) {
        // Never less than three pixels, so the corner pixels stay fully transparent even on the
        // tiny cards tests draw (down to about 8 pixels wide, where the corners become the sides).
        let cornerRadius = min(max(3.2, 3 * canvas.pixel), Canvas.cardSize.x / 2)
        card = RoundedRect(center: .zero, halfSize: Canvas.cardSize / 2, radius: cornerRadius)
        panel = RoundedRect(center: .zero, halfSize: card.halfSize - 3, radius: max(cornerRadius - 3, 1.8))
        titleBar = RoundedRect(center: Point(0, -37.6), halfSize: Point(27, 2.7), radius: 2.7)
        art = RoundedRect(center: Point(0, -13.4), halfSize: Point(26, 19.8), radius: 0.4)
        artFrame = art.inset(by: -0.9)
        textBox = RoundedRect(center: Point(0, 25.2), halfSize: Point(27, 12.2), radius: 1.2)
    }
}
