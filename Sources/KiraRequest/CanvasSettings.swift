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
    /// Scale the card so that what it draws fills ``size``, less ``/KiraRender/FrameScene/fitMargin`` on every
    /// side: a still's card at its pose, or an animation's card over all its frames.
    public var fit = false

    public init(size: Size? = nil, background: FrameBackground = .transparent, scale: Double? = nil, fit: Bool = false) {
        self.size = size
        self.background = background
        self.scale = scale
        self.fit = fit
    }

    /// The largest side Kira draws, writes and reads: the image types' limit.
    public static let maxSide = ImageLimits.standard.maxSide
    /// The card's scales.
    static let scales: ClosedRange<Double> = 0.01...4

    static let parameters: [RequestParameter<CanvasSettings>] = [
        .value("size", \.size, default: nil, valueName: "WxH",
               help: "Canvas size, each side 1...\(maxSide), e.g. 800x1000 (default: the card plus room for a ±45° tilt).",
               parse: { (text: String) throws(RequestError) -> Size? in
                   guard let size = ArgumentValues.size(text, maxSide: maxSide) else {
                       throw RequestError(parameter: "size", reason: "must be WIDTHxHEIGHT with each side 1...\(maxSide), e.g. 800x1000, not \(ParameterValue.quoted(text))")
                   }
                   return Size(width: size.width, height: size.height)
               },
               spell: { size in size.map { "\($0.width)x\($0.height)" } ?? "" }),
        .value("background", \.background, default: .transparent, valueName: "#RRGGBB|transparent",
               help: "Background: #RRGGBB (e.g. #1b1f2a) or transparent (default: transparent).",
               parse: { (text: String) throws(RequestError) -> FrameBackground in
                   if text.lowercased() == "transparent" { return .transparent }
                   guard let color = ArgumentValues.hexColor(text) else {
                       throw RequestError(parameter: "background", reason: "must be #RRGGBB (six hex digits, e.g. #1b1f2a) or transparent, not \(ParameterValue.quoted(text))")
                   }
                   return .color(color)
               },
               spell: { background in
                   guard let color = background.color8 else { return "transparent" }
                   return "#" + [color.x, color.y, color.z].map { byte in
                       let digits = Array("0123456789abcdef")
                       return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
                   }.joined()
               }),
        .number("scale", \.scale, in: scales, example: 0.5, valueName: "s",
                help: "Draw the card at this scale, 0.01...4 (default 1: one art pixel per canvas pixel); without {size} the canvas scales too."),
        .flag("fit", \.fit, help: "Scale the card so that it fills {size} as drawn (at its pose, or over every frame of an animation), with a margin of 4% of the shorter side (a canvas smaller than the card crops it otherwise)."),
    ]

    /// The checks between values, and of the values a program may set directly as properties
    /// against the parameters' ranges.
    func validate() throws(RequestError) {
        if let size, !((1...Self.maxSide).contains(size.width) && (1...Self.maxSide).contains(size.height)) {
            throw RequestError(parameter: "size", reason: "must have each side 1...\(Self.maxSide), not \(size.width)x\(size.height)")
        }
        if let scale { _ = try ParameterValue.checked(scale, in: Self.scales, name: "scale", example: 0.5) }
        if case .color(let color) = background, !(0...1).contains(color.x) || !(0...1).contains(color.y) || !(0...1).contains(color.z) {
            throw RequestError(parameter: "background", reason: "must have channels between 0 and 1, not \(color.x), \(color.y), \(color.z)")
        }
        if fit, scale != nil { throw RequestError(parameter: nil, reason: "give either {scale} or {fit}, not both") }
        if fit, size == nil { throw RequestError(parameter: "fit", reason: "needs {size} (the default canvas already fits the card)") }
    }

    /// Places the card on `scenes`, the frames one canvas shows (a still, or every frame of an
    /// animation): their canvas size, and the card's scale and offset, the same for all
    /// (``/KiraRender/FrameScene/place(_:size:scale:fit:)``).
    /// Throws when a value set directly as a property is outside its parameter's range, or when
    /// the placement refuses the scenes.
    public func place(_ scenes: inout [FrameScene]) throws(RequestError) {
        try validate()
        do {
            try FrameScene.place(&scenes, size: size.map { ($0.width, $0.height) }, scale: scale, fit: fit)
        } catch {
            throw RequestError(error)
        }
    }

    /// The note for frames that `scenes` (the frames one canvas shows) crop, if any: only a
    /// ``size`` the user gave crops, and neither ``fit`` nor ``scale`` was asked for. Parameters
    /// are written `{name}`.
    public func cropNote(for scenes: [FrameScene]) -> String? {
        guard let size, !fit, scale == nil else { return nil }
        let cropped = scenes.filter(\.isCropped).count
        guard cropped > 0 else { return nil }
        let which = scenes.count == 1 ? "the card" : "the card in \(cropped) of \(scenes.count) frames"
        return "\(which) reaches beyond the \(size.width)×\(size.height) canvas and is cropped "
            + "(give {fit} to fill the canvas with the whole card, or {scale})"
    }
}
