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

    func validate() throws {
        try Check.integer(cellWidth, "--cell-width", in: 32...1024)
        if shader.foil != nil { throw ValidationError("kira foils draws every foil: leave out --foil") }
        if output.depth.depth != 8 { throw ValidationError("kira foils writes an 8-bit sheet: leave out --depth") }
    }

    func run() throws {
        try InputFiles.checkOutput(output.path, isNotOneOf: card.paths)
        let faces = try card.load()
        let front = faces.front.face, back = faces.back.face
        faces.reportAssumptions(showing: [.front], command: "foils")
        let inputBytes = [front.art, front.mask, back.art, back.mask].reduce(0) { $0 + $1.byteCount } + (card.foilMap != nil ? front.foilMap?.byteCount ?? 0 : 0)
        try memory.check(inputBytes + FoilGallery.estimatedPeakBytes(front: front, back: back, cellWidth: cellWidth),
                         for: "a gallery of \(front.art.width)×\(front.art.height) cards", hint: "give smaller art")
        let path = try output.prepare()
        let sheet = try FoilGallery.render(front: front, back: back, parameters: shader.parameters, cellWidth: cellWidth,
                                           renderer: FrameRenderer(threads: threads.count))
        try PNGCodec.write(sheet, to: path, options: output.compression.options)
    }
}
