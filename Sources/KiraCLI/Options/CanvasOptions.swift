import ArgumentParser
import Kira
import KiraArguments

/// The canvas the card is drawn on: its size and background.
struct CanvasOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Canvas size (default: the card plus room for a ±45° tilt).", valueName: "WxH"))
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Background: #RRGGBB or transparent.", valueName: "#RRGGBB|transparent"))
    var background = BackgroundArgument(value: .transparent)

    /// The canvas size to ask for (nil: the scene's default for the card).
    var canvasSize: (width: Int, height: Int)? { size.map { ($0.width, $0.height) } }
}

/// `#RRGGBB` (or `RRGGBB`) or `transparent`.
struct BackgroundArgument: ExpressibleByArgument {
    var value: FrameBackground

    init(value: FrameBackground) { self.value = value }

    init?(argument: String) {
        if argument.lowercased() == "transparent" {
            value = .transparent
            return
        }
        guard let color = ArgumentValues.hexColor(argument) else { return nil }
        value = .color(color)
    }

    var defaultValueDescription: String { "transparent" }
}
