import ArgumentParser
import Kira

/// `kira render`: one on-screen frame of the card, tilted and flipped as SwiftUI shows it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the card on screen: tilted and flipped in perspective, as SwiftUI draws the original card view, with the kira shine.",
        discussion: """
            Each visible face is shaded flat (the front with the tilt's normal, the back with its \
            negation) and projected with perspective, as SwiftUI stacks the card's modifiers: the flip, \
            then the tilt about x, then the tilt about y. The card sits centred on the canvas. \
            Without --art the built-in sample card is drawn.
            """
    )

    @OptionGroup var card: CardOptions
    @OptionGroup var pose: PoseOptions
    @OptionGroup var canvas: CanvasOptions
    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var output: OutputOptions<RenderOutput>
    @OptionGroup var memory: MemoryOptions

    enum RenderOutput: DefaultOutput {
        static let path = "output/render.png"
    }

    /// The frame the options describe.
    var request: RenderRequest {
        get throws {
            do {
                return try RenderRequest(values: card.values + pose.values + canvas.values + shader.values + output.format.values)
            } catch {
                throw ValidationError(error.commandLine)
            }
        }
    }

    func validate() throws {
        let request = try self.request
        try output.check { (path: String) throws(RequestError) in try request.format(ofFile: path) }
    }

    func run() throws {
        let frame = try request.prepare(writingTo: output.path, budget: memory.budget)
        for note in frame.notes { writeToStandardError("kira render: \(OptionSpelling.spell(note))\n") }
        let path = try output.prepare()
        try frame.write(try frame.render(with: FrameRenderer(threads: threads.count)), to: path)
        if let note = output.defaultNote { writeToStandardError("kira render: \(note)\n") }
        // Said once the frame is written: a failed run says only why it failed.
        for note in frame.closingNotes { writeToStandardError("kira render: \(OptionSpelling.spell(note))\n") }
    }
}
