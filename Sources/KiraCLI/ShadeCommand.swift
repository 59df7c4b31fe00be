import ArgumentParser
import Kira

/// `kira shade`: the flat card face with the kira shine, at the art's size.
struct ShadeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shade",
        abstract: "Shade a flat card face with the kira shine, at the art's size.",
        discussion: """
            The face normal comes from a tilt (seed 003's normalFromTilt) or is given directly. \
            Without --art and --mask the sample card in textures/ is used.
            """
    )

    @Option(help: ArgumentHelp("The card art (PNG). Default: textures/front.png, or textures/back.png with --back.", valueName: "path"))
    var art: String?

    @Option(help: ArgumentHelp("The holo mask (PNG, any size; white = full shine). Default: the sample's.", valueName: "path"))
    var mask: String?

    @Option(name: .customLong("tilt-x"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the x axis, in degrees (-180...180).", valueName: "deg"))
    var tiltX: Float?

    @Option(name: .customLong("tilt-y"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the y axis, in degrees (-180...180).", valueName: "deg"))
    var tiltY: Float?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The face normal instead of a tilt, e.g. -0.3,0.2,0.9 (normalised).", valueName: "x,y,z"))
    var normal: Vector3Argument?

    @Flag(help: "Shade the back face, as the seed does: with the normal negated.")
    var back = false

    @Option(help: ArgumentHelp("Rotation matrices: seed (transposed, as seed 003) or standard.", valueName: "seed|standard"))
    var rotation: RotationConventionArgument = .seed

    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions

    @Option(name: .long, help: ArgumentHelp("Bits per channel of the output PNG: 8 or 16.", valueName: "8|16"))
    var depth = 8

    @Option(name: [.short, .long], help: ArgumentHelp("The PNG file to write (replaced atomically).", valueName: "path"))
    var output = "output/shade.png"

    enum RotationConventionArgument: String, ExpressibleByArgument, CaseIterable {
        case seed, standard
    }

    func validate() throws {
        if let tiltX { try Check.number(tiltX, "--tilt-x", in: -180...180) }
        if let tiltY { try Check.number(tiltY, "--tilt-y", in: -180...180) }
        if let normal {
            guard tiltX == nil, tiltY == nil else { throw ValidationError("give either --normal or --tilt-x/--tilt-y, not both") }
            guard KiraUniforms.isValidNormal(normal.value) else {
                let n = normal.value
                throw ValidationError("--normal \(n.x),\(n.y),\(n.z) has no direction: it must be finite and non-zero")
            }
        }
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth must be 8 or 16, not \(depth)") }
        guard !output.isEmpty, !output.hasSuffix("/") else { throw ValidationError("--output must name a file") }
    }

    /// The normal of the face being shaded.
    var faceNormal: SIMD3<Float> {
        let convention: Rotation.Convention = rotation == .seed ? .seed : .standard
        let n = normal?.value
            ?? Rotation.normalFromTilt(tiltXDegrees: tiltX ?? 0, tiltYDegrees: tiltY ?? 0, convention: convention)
        return back ? -n : n
    }

    func run() throws {
        let artPath = art ?? (back ? SampleFiles.back : SampleFiles.front)
        let maskPath = mask ?? (back ? SampleFiles.backMask : SampleFiles.mask)
        try InputFiles.checkOutput(output, isNotOneOf: [artPath, maskPath])
        let artImage = try PNGCodec.read(artPath)
        let maskImage = try PNGCodec.read(maskPath)

        let renderer = ShadeRenderer(threads: threads.count)
        let normal = faceNormal
        let parameters = shader.parameters
        func shade<Out: LaneChannel>(_: Out.Type) throws -> RGBAImage<Out> {
            var image = RGBAImage<Out>(width: 0, height: 0)
            try renderer.shade(art: artImage, mask: maskImage, normal: normal, parameters: parameters, into: &image)
            return image
        }
        if depth == 16 {
            try PNGCodec.write(try shade(UInt16.self), to: output)
        } else {
            try PNGCodec.write(try shade(UInt8.self), to: output)
        }
    }
}
