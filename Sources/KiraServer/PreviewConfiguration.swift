#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import KiraAnimation
import KiraGeometry
import KiraRequest
import KiraServerAPI

/// What the live preview's page builds its controls from, written into the page as JSON: the
/// cards, the width and tilt-limit ranges, the request parameters' entries (their ranges and
/// words, not copies of them), and the first frame's canvas, so the page does not jump when it
/// comes.
struct PreviewConfiguration: Encodable {
    struct Range: Encodable { var min: Double, max: Double, `default`: Double }
    struct Parameter: Encodable { var name: String, help: String, choices: [String]?, min: Double?, max: Double?, `default`: String? }
    struct Canvas: Encodable { var width: Int, height: Int }

    var cards: [String]
    var card: String
    var width: Range
    var tiltLimit: Range
    var parameters: [Parameter]
    var canvas: Canvas
    var encoding: String

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
    }

    var json: String { String(decoding: (try? JSONEncoder().encode(self)) ?? Data("{}".utf8), as: UTF8.self) }
}
#endif
