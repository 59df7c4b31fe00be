import ArgumentParser
import Kira

private typealias P = RenderParameters

/// The canvas the card is drawn on: its size, background and the card's scale.
struct CanvasOptions: ParsableArguments {
    @Option(name: P.size.long, help: P.size.argumentHelp) var size: String?
    @Option(name: P.background.long, help: P.background.argumentHelp) var background: String?
    @Option(name: P.scale.long, parsing: P.scale.parsing, help: P.scale.argumentHelp) var scale: String?
    @Flag(name: P.fit.long, help: P.fit.argumentHelp) var fit = false

    var values: [(String, String)] {
        given([(P.size, size), (P.background, background), (P.scale, scale), (P.fit, given(fit))])
    }
}
