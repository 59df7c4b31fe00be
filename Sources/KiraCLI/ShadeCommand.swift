import ArgumentParser
import Kira

private typealias P = ShadeCommand.Parameters

/// `kira shade`: the flat card face with the kira shine, at the art's size.
struct ShadeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shade",
        abstract: "Shade a flat card face with the kira shine, at the art's size.",
        discussion: """
            The face normal comes from a tilt (rotated about x, then y, as the original card view does) or is given directly. \
            Without --art the built-in sample card is shaded (its front, or its back with --back-face); \
            art without --mask shines where it is opaque.
            """
    )

    /// The entries of ``ShadeRequest/parameters`` this command declares.
    enum Parameters {
        static func entry(_ name: String) -> RequestParameter<ShadeRequest> {
            guard let entry = ShadeRequest.parameter(named: name) else { fatalError("no shade parameter \(name)") }
            return entry
        }

        static let art = entry("art"), mask = entry("mask"), foilMap = entry("foil_map"), tiltX = entry("tilt_x")
        static let tiltY = entry("tilt_y")
        static let normal = entry("normal"), back = entry("back_face")
    }

    @Option(name: P.art.long, help: P.art.argumentHelp, completion: P.art.completion) var art: String?
    @Option(name: P.mask.long, help: P.mask.argumentHelp, completion: P.mask.completion) var mask: String?
    @Option(name: P.foilMap.long, help: P.foilMap.argumentHelp, completion: P.foilMap.completion) var foilMap: String?
    @Option(name: P.tiltX.long, parsing: P.tiltX.parsing, help: P.tiltX.argumentHelp) var tiltX: String?
    @Option(name: P.tiltY.long, parsing: P.tiltY.parsing, help: P.tiltY.argumentHelp) var tiltY: String?
    @Option(name: P.normal.long, parsing: .unconditional, help: P.normal.argumentHelp) var normal: String?
    @Flag(name: P.back.long, help: P.back.argumentHelp) var back = false
    /// `--back-face`'s former spelling, which named a file in every other command.
    @Flag(name: .customLong("back"), help: .hidden) var formerBack = false

    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var output: OutputOptions<ShadeOutput>
    @OptionGroup var memory: MemoryOptions

    enum ShadeOutput: DefaultOutput {
        static let path = "output/shade.png"
    }

    /// The shading the options describe.
    var request: ShadeRequest {
        get throws {
            let values = given([(P.art, art), (P.mask, mask), (P.foilMap, foilMap), (P.tiltX, tiltX), (P.tiltY, tiltY), (P.normal, normal),
                                (P.back, given(back || formerBack))])
            do {
                return try ShadeRequest(values: values + shader.values + output.format.values)
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
        if formerBack { writeToStandardError("kira shade: --back is now --back-face (--back, a file elsewhere, works here until the next release)\n") }
        let shading = try request.prepare(writingTo: output.path, budget: memory.budget)
        for note in shading.notes { writeToStandardError("kira shade: \(OptionSpelling.spell(note))\n") }
        let path = try output.prepare()
        try shading.write(try shading.shade(with: ShadeRenderer(threads: threads.count)), to: path)
        if let note = output.defaultNote { writeToStandardError("kira shade: \(note)\n") }
    }
}
