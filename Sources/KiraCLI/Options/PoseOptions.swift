import ArgumentParser
import Kira

private typealias P = RenderParameters

/// How the card is turned on screen: the tilt, the flip and their perspectives.
struct PoseOptions: ParsableArguments {
    @Option(name: P.tiltX.long, parsing: P.tiltX.parsing, help: P.tiltX.argumentHelp) var tiltX: String?
    @Option(name: P.tiltY.long, parsing: P.tiltY.parsing, help: P.tiltY.argumentHelp) var tiltY: String?
    @Option(name: P.flip.long, parsing: P.flip.parsing, help: P.flip.argumentHelp) var flip: String?
    @Option(name: P.axis.long, help: P.axis.argumentHelp, completion: P.axis.completion) var axis: String?
    @Option(name: P.perspective.long, parsing: P.perspective.parsing, help: P.perspective.argumentHelp) var perspective: String?
    @Option(name: P.tiltPerspective.long, parsing: P.tiltPerspective.parsing, help: P.tiltPerspective.argumentHelp) var tiltPerspective: String?
    @Flag(name: P.crossfade.long, help: P.crossfade.argumentHelp) var crossfade = false

    var values: [(String, String)] {
        given([(P.tiltX, tiltX), (P.tiltY, tiltY), (P.flip, flip), (P.axis, axis), (P.perspective, perspective),
               (P.tiltPerspective, tiltPerspective), (P.crossfade, given(crossfade))])
    }
}
