import ArgumentParser
import Kira
import KiraArguments

/// `kira render`: one on-screen frame of the card, tilted and flipped as SwiftUI shows it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the card on screen: tilted and flipped through rotation3DEffect, with the kira shine.",
        discussion: """
            Each visible face is shaded flat (the front with the tilt's normal, the back with its \
            negation) and projected with perspective, as seed 003 stacks its modifiers: the flip, \
            then the tilt about x, then the tilt about y. The card sits centred on the canvas.
            """
    )

    @OptionGroup var card: CardOptions

    @Option(name: .customLong("tilt-x"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the x axis, in degrees (-90...90).", valueName: "deg"))
    var tiltX: Double = 0

    @Option(name: .customLong("tilt-y"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the y axis, in degrees (-90...90).", valueName: "deg"))
    var tiltY: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Flip angle in degrees: 0 front, 180 back (-720...720).", valueName: "deg"))
    var flip: Double = 0

    @Option(help: ArgumentHelp("Flip axis: y (seed 003), x, or xy (the diagonal 1,1,0).", valueName: "y|x|xy"))
    var axis: AxisArgument = .y

    @Option(help: ArgumentHelp("Perspective of the flip (seed 003: 0.7; 0 for none).", valueName: "p"))
    var perspective: Double = 0.7

    @Option(name: .customLong("tilt-perspective"), help: ArgumentHelp("Perspective of the tilts (SwiftUI's default: 1).", valueName: "p"))
    var tiltPerspective: Double = 1

    @Flag(help: "Show the faces as seeds 002/003 do: an opacity crossfade by flip angle, instead of the face towards the viewer.")
    var crossfade = false

    @Option(help: ArgumentHelp("Canvas size (default: the card plus room for a ±45° tilt).", valueName: "WxH"))
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Background: #RRGGBB or transparent.", valueName: "#RRGGBB|transparent"))
    var background: BackgroundArgument = BackgroundArgument(value: .transparent)

    @OptionGroup var shader: ShaderOptions
    @OptionGroup var threads: ThreadOptions

    @Option(help: ArgumentHelp("Bits per channel of the output PNG: 8 or 16.", valueName: "8|16"))
    var depth = 8

    @Option(name: [.short, .long], help: ArgumentHelp("The PNG file to write (replaced atomically).", valueName: "path"))
    var output = "output/render.png"

    enum AxisArgument: String, ExpressibleByArgument, CaseIterable {
        case y, x, xy

        var axis: CardPose.FlipAxis {
            switch self {
            case .y: .y
            case .x: .x
            case .xy: .diagonal
            }
        }
    }

    func validate() throws {
        try Check.number(tiltX, "--tilt-x", in: -90...90)
        try Check.number(tiltY, "--tilt-y", in: -90...90)
        try Check.number(flip, "--flip", in: -720...720)
        try Check.number(perspective, "--perspective", in: 0...10)
        try Check.number(tiltPerspective, "--tilt-perspective", in: 0...10)
        guard depth == 8 || depth == 16 else { throw ValidationError("--depth must be 8 or 16, not \(depth)") }
        guard !output.isEmpty, !output.hasSuffix("/") else { throw ValidationError("--output must name a file") }
    }

    func run() throws {
        try InputFiles.checkOutput(output, isNotOneOf: card.paths)
        let (front, backFace) = try card.faces()
        let pose = CardPose(
            tiltX: tiltX, tiltY: tiltY, flip: flip, flipAxis: axis.axis,
            flipPerspective: perspective, tiltPerspective: tiltPerspective)
        let scene = FrameScene(
            front: front, back: backFace, pose: pose, canvasSize: size.map { ($0.width, $0.height) },
            background: background.value, visibility: crossfade ? .crossfade : .orientation,
            parameters: shader.parameters)
        let renderer = FrameRenderer(threads: threads.count)
        if depth == 16 {
            var image = RGBAImage<UInt16>(width: 0, height: 0)
            try renderer.render(scene, into: &image)
            try PNGCodec.write(image, to: output)
        } else {
            var image = RGBAImage<UInt8>(width: 0, height: 0)
            try renderer.render(scene, into: &image)
            try PNGCodec.write(image, to: output)
        }
    }
}

/// `#RRGGBB` (or `RRGGBB`) or `transparent`.
struct BackgroundArgument: ExpressibleByArgument {
    var value: FrameBackground

    init(value: FrameBackground) { self.value = value }

    init?(argument: String) {
        if argument.lowercased() == "transparent" {
            value = .transparent
            return
        }
        guard let color = ArgumentValues.hexColor(argument) else { return nil }
        value = .color(color)
    }

    var defaultValueDescription: String { "transparent" }
}
