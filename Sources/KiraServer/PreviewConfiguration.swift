#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraRequest
import KiraServerAPI

/// What the live preview's page builds its controls from, written into the page as JSON: the
/// cards, the width and tilt-limit ranges, the request parameters' entries (their ranges and
/// words, not copies of them), and the first frame's canvas, so the page does not jump when it
/// comes; and where the browser's Kira is, when the server has it, so the page renders the card
/// itself and keeps the server's frames for comparison and as its fallback.
struct PreviewConfiguration: Encodable {
    struct Range: Encodable { var min: Double, max: Double, `default`: Double }
    struct Parameter: Encodable { var name: String, help: String, choices: [String]?, min: Double?, max: Double?, `default`: String? }
    struct Canvas: Encodable { var width: Int, height: Int }
    /// The browser's Kira as the page loads it: `<kira-card>`'s module, and a card's file with
    /// `{id}` standing for the card. Relative to the page (`./web/…`), so that the preview works
    /// behind a proxy that serves it under a path prefix.
    struct Bundle: Encodable { var module: String, cardFile: String }

    /// Where `--web`'s folder is served.
    static let webPath = "/web"

    var cards: [String]
    var card: String
    var width: Range
    var tiltLimit: Range
    var parameters: [Parameter]
    var canvas: Canvas
    var encoding: String
    /// Nil (left out of the JSON) when the server has no browser bundle: the page streams.
    var bundle: Bundle?

    init(service: FrameService) {
        parameters = LiveControls.parameters.map { parameter in
            let choices: [String]? = if case .choice(let words) = parameter.kind { words } else { nil }
            return Parameter(name: parameter.name, help: parameter.help(naming: { $0 }), choices: choices,
                             min: parameter.range?.lowerBound, max: parameter.range?.upperBound, default: parameter.defaultValue)
        }
        let controls = LiveControls()
        canvas = Canvas(width: LiveControls.defaultWidth, height: LiveControls.defaultWidth)
        if let card = service.cards[controls.cardID] {
            let window = controls.window(for: card, tiltLimit: InteractiveCard.defaultTiltLimit)
            canvas = Canvas(width: window.width, height: window.height)
        }
        cards = service.cards.cards.keys.sorted()
        card = controls.cardID
        width = Range(min: Double(LiveControls.widthRange.lowerBound), max: Double(LiveControls.widthRange.upperBound),
                      default: Double(LiveControls.defaultWidth))
        tiltLimit = Range(min: InteractiveCard.tiltLimitRange.lowerBound, max: InteractiveCard.tiltLimitRange.upperBound,
                          default: InteractiveCard.defaultTiltLimit)
        encoding = service.configuration.liveEncoding?.rawValue ?? LiveEncoding.automaticName
        bundle = Self.bundle(in: service.configuration.webDirectory)
    }

    /// The bundle in `webDirectory`, when the element's module is there (the server checked
    /// kira.wasm when it started).
    static func bundle(in webDirectory: String?) -> Bundle? {
        guard let webDirectory, FileIO.isRegularFile("\(webDirectory)/kira-card.js") else { return nil }
        let cardFile = CardFileController<ServerRequestContext>.path.replacing(":id", with: "{id}")
        return Bundle(module: ".\(webPath)/kira-card.js", cardFile: "." + cardFile)
    }

    var json: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self) }
}
#endif
