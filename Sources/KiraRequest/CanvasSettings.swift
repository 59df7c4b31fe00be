import KiraArguments
import KiraImage
import KiraRender

/// The canvas the card is drawn on: its size, its background, and the card's scale on it.
public struct CanvasSettings: Sendable, Equatable {
    /// A canvas size in pixels.
    public struct Size: Sendable, Equatable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Nil: the card plus room for a ±45° tilt (scaled with ``scale``).
    public var size: Size?
    public var background: FrameBackground = .transparent
    /// The card's scale, 0.01…4; nil is 1 (one art pixel per canvas pixel).
    public var scale: Double?
    /// Scale the card down so that it fits ``size`` even tilted by ±45°.
    public var fit = false

    public init(size: Size? = nil, background: FrameBackground = .transparent, scale: Double? = nil, fit: Bool = false) {
        self.size = size
        self.background = background
        self.scale = scale
        self.fit = fit
    }

    /// The largest side Kira draws, writes and reads.
    public static let maxSide = 16384

    static let parameters: [RequestParameter<CanvasSettings>] = [
        .value("size", \.size, default: nil, valueName: "WxH",
               help: "Canvas size, each side 1...\(maxSide), e.g. 800x1000 (default: the card plus room for a ±45° tilt).",
               parse: { (text: String) throws(RequestError) -> Size? in
                   guard let size = ArgumentValues.size(text, maxSide: maxSide) else {
                       throw RequestError(parameter: "size", reason: "must be WIDTHxHEIGHT with each side 1...\(maxSide), e.g. 800x1000, not \"\(text)\"")
                   }
                   return Size(width: size.width, height: size.height)
               },
               spell: { size in size.map { "\($0.width)x\($0.height)" } ?? "" }),
        .value("background", \.background, default: .transparent, valueName: "#RRGGBB|transparent",
               help: "Background: #RRGGBB (e.g. #1b1f2a) or transparent (default: transparent).",
               parse: { (text: String) throws(RequestError) -> FrameBackground in
                   if text.lowercased() == "transparent" { return .transparent }
                   guard let color = ArgumentValues.hexColor(text) else {
                       throw RequestError(parameter: "background", reason: "must be #RRGGBB (six hex digits, e.g. #1b1f2a) or transparent, not \"\(text)\"")
                   }
                   return .color(color)
               },
               spell: { background in
                   guard case .color(let c) = background else { return "transparent" }
                   let bytes = (0..<3).map { UInt8((c[$0] * 255).rounded()) }
                   return "#" + bytes.map { byte in
                       let digits = Array("0123456789abcdef")
                       return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
                   }.joined()
               }),
        .number("scale", \.scale, in: 0.01...4, valueName: "s",
                help: "Draw the card at this scale, 0.01...4 (default 1: one art pixel per canvas pixel); without {size} the canvas scales too."),
        .flag("fit", \.fit, help: "Scale the card down so that it fits {size} even tilted by ±45° (a canvas smaller than the card crops it otherwise)."),
    ]

    /// The checks between values.
    func validate() throws(RequestError) {
        if fit, scale != nil { throw RequestError(parameter: nil, reason: "give either {scale} or {fit}, not both") }
        if fit, size == nil { throw RequestError(parameter: "fit", reason: "needs {size} (the default canvas already fits the card)") }
    }

    /// The canvas and the card's scale on it, for a card of `cardWidth × cardHeight` pixels.
    public func placement(cardWidth: Int, cardHeight: Int) -> (size: (width: Int, height: Int), scale: Double) {
        if let size {
            let scale = fit
                ? FrameScene.fittingScale(cardWidth: cardWidth, cardHeight: cardHeight, canvasWidth: size.width, canvasHeight: size.height)
                : self.scale ?? 1
            return ((size.width, size.height), scale)
        }
        let room = FrameScene.defaultCanvasSize(cardWidth: cardWidth, cardHeight: cardHeight)
        guard let scale, scale != 1 else { return (room, 1) }
        return ((max(1, Int((Double(room.width) * scale).rounded())), max(1, Int((Double(room.height) * scale).rounded()))), scale)
    }
}
