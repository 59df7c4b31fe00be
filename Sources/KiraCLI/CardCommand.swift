import ArgumentParser
import Kira
import KiraFiles

/// `kira card`: a card file for the browser's Kira (docs/web.md).
struct CardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "card",
        abstract: "Write a card file: the card's faces as Kira renders them, for <kira-card> and kira.js in a browser.",
        discussion: """
            The file holds the front's and the back's art, holo mask and foil map as Kira would \
            render them (PNGs decoded, converted to sRGB, masks fitted, the defaults of kira render \
            applied), as raw RGBA, gzip-compressed: a browser renders the same bytes as kira render \
            without decoding a PNG. Without --art, the built-in sample card.
            """
    )

    @OptionGroup var card: CardOptions
    @Option(name: [.short, .long], help: ArgumentHelp("The card file to write.", valueName: "path"))
    var output = "card.kira"
    @OptionGroup var memory: MemoryOptions

    func run() throws {
        let request: RenderRequest
        do {
            request = try RenderRequest(values: card.values)
        } catch {
            throw ValidationError(error.commandLine)
        }
        let loaded = try request.card.load(budget: memory.budget)
        // The raw file and its compressed copy beside the decoded textures.
        try memory.budget.check(loaded.byteCount * 3, for: "writing the card file", hint: "give smaller art")
        for note in [loaded.front.assumption, loaded.back.assumption].compactMap({ $0 }) {
            writeToStandardError("kira card: \(OptionSpelling.spell(note))\n")
        }
        try FileIO.writeAtomically(loaded.cardFile, to: output, inputs: request.card.paths)
    }
}
