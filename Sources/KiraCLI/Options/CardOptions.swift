import ArgumentParser
import Kira

/// The card's two faces, for the commands that draw the card on screen.
struct CardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Front art (PNG).", valueName: "path"))
    var art = SampleFiles.front

    @Option(help: ArgumentHelp("Front holo mask (PNG).", valueName: "path"))
    var mask = SampleFiles.mask

    @Option(help: ArgumentHelp("Back art (PNG).", valueName: "path"))
    var back = SampleFiles.back

    @Option(name: .customLong("back-mask"), help: ArgumentHelp("Back holo mask (PNG).", valueName: "path"))
    var backMask = SampleFiles.backMask

    /// The four input files.
    var paths: [String] { [art, mask, back, backMask] }

    /// Reads the faces; failures name the file.
    func faces() throws -> (front: CardFace, back: CardFace) {
        (CardFace(art: try PNGCodec.read(art), mask: try PNGCodec.read(mask)),
         CardFace(art: try PNGCodec.read(back), mask: try PNGCodec.read(backMask)))
    }
}
