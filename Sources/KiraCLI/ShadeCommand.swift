import ArgumentParser
import Kira

/// `kira shade`: the flat card face with the kira shine, at the art's size.
struct ShadeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shade",
        abstract: "Shade a flat card face with the kira shine, at the art's size.",
        discussion: """
            The face normal comes from a tilt (seed 003's normalFromTilt) or is given directly. \
            Without --art the built-in sample card is shaded (its front, or its back with --back); \
            art without --mask shines where it is opaque.
            """
    )

    @Option(help: ArgumentHelp("The card art (PNG; default: the built-in sample card's front, or its back with --back).", valueName: "path"))
    var art: String?

    @Option(help: ArgumentHelp("The holo mask (PNG, any size; white = full shine; default: the art's alpha, or the sample's mask).", valueName: "path"))
    var mask: String?

    @OptionGroup var tilt: TiltOptions

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The face normal instead of a tilt, e.g. -0.3,0.2,0.9 (normalised).", valueName: "x,y,z"))
    var normal: Vector3Argument?

    @Flag(help: "Shade the back face, as the seed does: with the normal negated.")
    var back = false

    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions
    @OptionGroup var output: OutputOptions<ShadeOutput>
    @OptionGroup var memory: MemoryOptions

    enum ShadeOutput: DefaultOutput {
        static let path = "output/shade.png"
    }

    func validate() throws {
        if let normal {
            guard !tilt.isGiven else { throw ValidationError("give either --normal or --tilt-x/--tilt-y, not both") }
            guard KiraUniforms.isValidNormal(normal.value) else {
                let n = normal.value
                throw ValidationError("--normal \(n.x),\(n.y),\(n.z) has no direction: it must be finite and non-zero")
            }
        }
    }

    /// The normal of the face being shaded.
    var faceNormal: SIMD3<Float> {
        let n = normal?.value
            ?? Rotation.normalFromTilt(tiltXDegrees: Float(tilt.x), tiltYDegrees: Float(tilt.y), convention: shader.rotationConvention)
        return back ? -n : n
    }

    func run() throws {
        try InputFiles.checkOutput(output.path, isNotOneOf: [art, mask].compactMap { $0 })
        try memory.checkInputs([art, mask].compactMap { $0 })
        let artImage = try art.map { try PNGCodec.read($0) }, maskImage = try mask.map { try PNGCodec.read($0) }
        let input = FaceInput.resolve(art: art.map { ($0, artImage!) }, mask: maskImage, maskOption: "--mask") {
            back ? BuiltInCard.back : BuiltInCard.front
        }
        if let assumption = input.assumption { writeToStandardError("kira shade: \(assumption)\n") }
        // The inputs, the shaded image and its PNG bytes (at most about its raw size).
        let art = input.face.art, outputBytes = MemoryBudget.imageBytes(width: art.width, height: art.height, channelBytes: output.depth.depth / 8)
        try memory.check(art.byteCount + input.face.mask.byteCount + 2 * outputBytes,
                         for: "shading a \(art.width)×\(art.height) image", hint: "give smaller art")
        let path = try output.prepare()

        let renderer = ShadeRenderer(threads: threads.count)
        let normal = faceNormal
        let parameters = shader.parameters
        func shade<Out: LaneChannel>(_: Out.Type) throws -> RGBAImage<Out> {
            var image = RGBAImage<Out>(width: 0, height: 0)
            try renderer.shade(art: input.face.art, mask: input.face.mask, normal: normal, parameters: parameters, into: &image)
            return image
        }
        if output.depth.depth == 16 {
            try PNGCodec.write(try shade(UInt16.self), to: path, options: output.compression.options)
        } else {
            try PNGCodec.write(try shade(UInt8.self), to: path, options: output.compression.options)
        }
    }
}
