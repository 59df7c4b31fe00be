import ArgumentParser
import Kira

/// `kira foils`: the gallery, every foil at three tilts on one contact sheet.
struct FoilsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foils",
        abstract: "Draw every foil at three tilts of the card on one contact sheet.",
        discussion: """
            One column per foil, in the order \(FoilRegistry.names.joined(separator: ", ")); the rows show \
            the card tilted up and to the left, near rest, and down and to the right (--foil is not for \
            this command). Without --art the built-in sample card is drawn.
            """
    )

    @OptionGroup var card: CardOptions
    @OptionGroup var shader: ShaderOptions

    @Option(name: .customLong("cell-width"), help: ArgumentHelp("Width of each cell of the sheet in pixels, 32...1024.", valueName: "px"))
    var cellWidth = 240

    @OptionGroup var threads: ThreadOptions
    @OptionGroup var output: OutputOptions<FoilsOutput>
    @OptionGroup var memory: MemoryOptions

    enum FoilsOutput: DefaultOutput {
        static let path = "output/foils.png"
    }

    /// The card and the shader the options describe (the pose, canvas and foil are the gallery's).
    var request: RenderRequest {
        get throws {
            do {
                return try RenderRequest(values: card.values + shader.values + output.format.values)
            } catch {
                throw ValidationError(error.commandLine)
            }
        }
    }

    func validate() throws {
        try Check.integer(cellWidth, "--cell-width", in: 32...1024, example: 240)
        if shader.foil != nil { throw ValidationError("kira foils draws every foil: leave out --foil") }
        let request = try self.request
        if request.output.depth != 8 { throw ValidationError("kira foils writes an 8-bit sheet: leave out --depth") }
    }

    func run() throws {
        let request = try self.request
        try InputFiles.checkOutput(output.path, isNotOneOf: request.card.paths)
        let card = try request.card.load()
        if let notes = card.assumptions(showing: [.front]) { writeToStandardError("kira foils: \(OptionSpelling.spell(notes))\n") }
        let front = card.front.face, back = card.back.face
        try memory.budget.check(card.byteCount + FoilGallery.estimatedPeakBytes(front: front, back: back, cellWidth: cellWidth),
                                for: "a gallery of \(front.art.width)×\(front.art.height) cards", hint: "give smaller art")
        let path = try output.prepare()
        let sheet = try FoilGallery.render(front: front, back: back, parameters: request.shader.parameters, cellWidth: cellWidth,
                                           renderer: FrameRenderer(threads: threads.count))
        try request.write(.rgba8(sheet), to: path)
        if let note = output.defaultNote { writeToStandardError("kira foils: \(note)\n") }
    }
}
