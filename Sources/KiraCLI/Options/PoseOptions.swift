import ArgumentParser
import Kira

private typealias P = RenderParameters

/// How the card is turned on screen: the tilt, the flip and their perspectives.
struct PoseOptions: ParsableArguments {
    @Option(name: P.tiltX.long, parsing: .unconditional, help: P.tiltX.argumentHelp) var tiltX: String?
    @Option(name: P.tiltY.long, parsing: .unconditional, help: P.tiltY.argumentHelp) var tiltY: String?
    @Option(name: P.flip.long, parsing: .unconditional, help: P.flip.argumentHelp) var flip: String?
    @Option(name: P.axis.long, help: P.axis.argumentHelp, completion: P.axis.completion) var axis: String?
    @Option(name: P.perspective.long, help: P.perspective.argumentHelp) var perspective: String?
    @Option(name: P.tiltPerspective.long, help: P.tiltPerspective.argumentHelp) var tiltPerspective: String?
    @Flag(name: P.crossfade.long, help: P.crossfade.argumentHelp) var crossfade = false

    var values: [(String, String)] {
        given([(P.tiltX, tiltX), (P.tiltY, tiltY), (P.flip, flip), (P.axis, axis), (P.perspective, perspective),
               (P.tiltPerspective, tiltPerspective), (P.crossfade, given(crossfade))])
    }
}
