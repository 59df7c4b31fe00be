#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraImage
import KiraRender
import KiraRequest

/// What a live preview shows besides its pose, as the page's controls set it: the card, its
/// width on screen, the tilt limit, and the look (request parameters, parsed by their entries
/// in ``/KiraRequest/RenderRequest/parameters``, so a control takes what a URL takes).
struct LiveControls: Sendable {
    /// The request parameters the page offers as controls, in the order it shows them.
    static let parameterNames = ["background", "shader", "angle_strength", "foil", "intensity", "glare"]
    /// The card's width on screen, in pixels: the default shows a 630×880 card as it is drawn,
    /// and the largest doubles it (a 1260×1760 card).
    static let defaultWidth = 630
    static let widthRange = 126...1260

    var cardID = CardLibrary.sampleID
    var width = defaultWidth
    /// The request parameters set, by name, as given (each checked when set).
    private(set) var values: [String: String] = [:]

    /// The entries of ``parameterNames``.
    static var parameters: [RequestParameter<RenderRequest>] { parameterNames.compactMap(RenderRequest.parameter(named:)) }

    /// Sets the control `name` to `value`, or throws what is wrong with it. `card` must be one
    /// of `cards`; the tilt limit and reduced motion are set on `interaction`.
    mutating func set(_ name: String, to value: String, cards: CardLibrary, interaction: inout InteractiveCard) throws(RequestError) {
        switch name {
        case "card":
            guard cards[value] != nil else {
                throw RequestError(parameter: "card", reason: "must be one of " + cards.cards.keys.sorted().joined(separator: ", ") + ", not \(QuotedValue.quoted(value))")
            }
            cardID = value
        case "width":
            guard let width = Int(value), Self.widthRange.contains(width) else {
                throw RequestError(parameter: "width", reason: "must be a whole number of pixels \(Self.widthRange.lowerBound)...\(Self.widthRange.upperBound), not \(QuotedValue.quoted(value))")
            }
            self.width = width
        case "tilt_limit":
            let range = InteractiveCard.tiltLimitRange
            // Not through C's strtod alone: it stops at a NUL, and "20\0x" would be 20.
            guard !value.utf8.contains(0), let limit = Double(value), range.contains(limit) else {
                throw RequestError(parameter: "tilt_limit", reason: "must be degrees between \(Int(range.lowerBound)) and \(Int(range.upperBound)), not \(QuotedValue.quoted(value))")
            }
            interaction.setTiltLimit(limit)
        case "reduced_motion":
            interaction.reducedMotion = value == "true"
        default:
            guard Self.parameterNames.contains(name), let parameter = RenderRequest.parameter(named: name) else {
                throw RequestError(parameter: nil, reason: "unknown control \(QuotedValue.quoted(name)); the controls are card, width, tilt_limit, reduced_motion, "
                                   + Self.parameterNames.joined(separator: ", "))
            }
            if value.isEmpty {
                values[name] = nil
            } else {
                var probe = RenderRequest()
                try parameter.set(value, in: &probe)
                values[name] = value
            }
        }
    }

    /// The request for the frame of `card` in `pose`: the controls' values, the pose (to a
    /// hundredth of a degree, so that its URL stays short), the seed's crossfade, and the scale
    /// that draws the card `width` pixels wide. The numbers are set as numbers, checked by
    /// their entries as their text would be.
    func request(pose: CardPose, card: CardLibrary.Card) throws(RequestError) -> RenderRequest {
        func degrees(_ value: Double) -> Double { (value * 100).rounded() / 100 }
        var request = RenderRequest()
        for name in Self.parameterNames { if let value = values[name] { try request.set(name, to: value) } }
        try request.set("tilt_x", toNumber: degrees(pose.tiltX))
        try request.set("tilt_y", toNumber: degrees(pose.tiltY))
        try request.set("flip", toNumber: degrees(pose.flip))
        request.crossfade = true
        let artWidth = card.faces.front.face.art.width
        if width != artWidth { try request.set("scale", toNumber: Double(width) / Double(artWidth)) }
        try request.validate()
        return request
    }

    /// The part of the frame's canvas the page shows for `card`: the rectangle every pose within
    /// `tiltLimit` draws into, at any flip angle, in canvas pixels. The canvas itself has room
    /// for a ±45° tilt, much of it empty at the default ±10°: for a 630-wide card this is
    /// 764×1326 of its 1170×1584 (the flip's perspective makes it tall). It stays one size while
    /// the card moves.
    func window(for card: CardLibrary.Card, tiltLimit: Double) -> ImageRegion {
        guard var scene = try? request(pose: CardPose(), card: card).scene(for: card.faces) else {
            return ImageRegion(x: 0, y: 0, width: 0, height: 0)
        }
        let canvas = ImageRegion(x: 0, y: 0, width: scene.canvasWidth, height: scene.canvasHeight)
        var low = SIMD2(Double.infinity, .infinity), high = -low
        // The tilt's extremes (a spring settles inside them) at every flip angle, a flip's
        // overshoot included.
        for tiltX in [-tiltLimit, 0, tiltLimit] {
            for tiltY in [-tiltLimit, 0, tiltLimit] {
                for flip in stride(from: -30.0, through: 390, by: 5) {
                    scene.pose = CardPose(tiltX: tiltX, tiltY: tiltY, flip: flip)
                    guard let extent = scene.drawnExtent else { continue }
                    let bounds = scene.canvasBounds(of: extent)
                    low = pointwiseMin(low, bounds.low)
                    high = pointwiseMax(high, bounds.high)
                }
            }
        }
        guard low.x <= high.x, low.y <= high.y else { return canvas }
        // A pixel more on every side (edge pixels are covered in part), kept inside the canvas.
        let x0 = max(0, Int((low.x - 1).rounded(.down))), y0 = max(0, Int((low.y - 1).rounded(.down)))
        let x1 = min(canvas.width, Int((high.x + 1).rounded(.up))), y1 = min(canvas.height, Int((high.y + 1).rounded(.up)))
        return ImageRegion(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The `kira render` command that writes the frame `request` describes of `card`.
    static func command(for request: RenderRequest, card: CardLibrary.Card) -> String {
        var words = ["kira", "render"]
        for (role, path) in card.files { words += [RenderRequest.parameter(named: role)?.option ?? "--" + role, quoted(path)] }
        for (name, value) in request.values {
            guard let parameter = RenderRequest.parameter(named: name) else { continue }
            words.append(parameter.kind == .flag ? parameter.option : parameter.option + "=" + quoted(value))
        }
        return (words + ["-o", "card.png"]).joined(separator: " ")
    }

    /// `text` as a POSIX shell word.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./=+,:".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
#endif
