import ArgumentParser
import Kira

/// `kira render`: one on-screen frame of the card, tilted and flipped as SwiftUI shows it.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the card on screen: tilted and flipped through rotation3DEffect, with the kira shine.",
        discussion: """
            Each visible face is shaded flat (the front with the tilt's normal, the back with its \
            negation) and projected with perspective, as seed 003 stacks its modifiers: the flip, \
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

    func run() throws {
        try InputFiles.checkOutput(output.path, isNotOneOf: card.paths)
        try memory.checkInputs(card.paths)
        let faces = try card.load()
        let scene = scene(front: faces.front.face, back: faces.back.face)
        faces.reportAssumptions(showing: scene.visibleSides, command: "render")
        // The inputs, the frame (canvas and shaded faces) and its PNG bytes.
        let channelBytes = output.depth.depth / 8
        let inputBytes = [scene.front.art, scene.front.mask, scene.back.art, scene.back.mask].reduce(0) { $0 + $1.byteCount }
        try memory.check(inputBytes + FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: channelBytes)
                             + scene.canvasBytes(channelBytes: channelBytes),
                         for: "a \(scene.canvasWidth)×\(scene.canvasHeight) frame", hint: "give a smaller --size or smaller art")
        let path = try output.prepare()
        let renderer = FrameRenderer(threads: threads.count)
        if output.depth.depth == 16 {
            var image = RGBAImage<UInt16>(width: 0, height: 0)
            try renderer.render(scene, into: &image)
            try PNGCodec.write(image, to: path, options: output.compression.options)
        } else {
            var image = RGBAImage<UInt8>(width: 0, height: 0)
            try renderer.render(scene, into: &image)
            try PNGCodec.write(image, to: path, options: output.compression.options)
        }
    }
}

extension RenderCommand {
    /// The frame these options describe, for the card's faces. `kira batch` renders its rows
    /// through this too, so that a row and `kira render` with the same values make the same frame.
    func scene(front: CardFace, back: CardFace) -> FrameScene {
        canvas.scene(front: front, back: back, pose: pose.pose, visibility: pose.visibility, shader: shader)
    }
}
