import ArgumentParser
import Kira

private typealias P = RenderParameters

/// The card's files, for the commands that draw the card on screen (see ``CardTextures``).
struct CardOptions: ParsableArguments {
    @Option(name: P.art.long, help: P.art.argumentHelp, completion: P.art.completion) var art: String?
    @Option(name: P.mask.long, help: P.mask.argumentHelp, completion: P.mask.completion) var mask: String?
    @Option(name: P.back.long, help: P.back.argumentHelp, completion: P.back.completion) var back: String?
    @Option(name: P.backMask.long, help: P.backMask.argumentHelp, completion: P.backMask.completion) var backMask: String?
    @Option(name: P.foilMap.long, help: P.foilMap.argumentHelp, completion: P.foilMap.completion) var foilMap: String?

    var values: [(String, String)] {
        given([(P.art, art), (P.mask, mask), (P.back, back), (P.backMask, backMask), (P.foilMap, foilMap)])
    }
}
