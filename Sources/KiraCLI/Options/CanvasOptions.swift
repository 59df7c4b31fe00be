import ArgumentParser
import Kira
import KiraArguments

/// The canvas the card is drawn on: its size and background.
struct CanvasOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Canvas size (default: the card plus room for a ±45° tilt).", valueName: "WxH"))
    var size: SizeArgument?

    @Option(help: ArgumentHelp("Background: #RRGGBB or transparent.", valueName: "#RRGGBB|transparent"))
    var background = BackgroundArgument(value: .transparent)

    @Option(help: ArgumentHelp("Draw the card at this scale, 0.01...4 (default 1: one art pixel per canvas pixel); without --size the canvas scales too.", valueName: "s"))
    var scale: Double?

    @Flag(help: "Scale the card down so that it fits --size even tilted by ±45° (a canvas smaller than the card crops it otherwise).")
    var fit = false

    func validate() throws {
        if let scale { try Check.number(scale, "--scale", in: 0.01...4) }
        if fit, scale != nil { throw ValidationError("give either --scale or --fit, not both") }
        if fit, size == nil { throw ValidationError("--fit needs --size (the default canvas already fits the card)") }
    }

    /// The canvas and the card's scale on it, for a card of `width × height` pixels.
    func placement(cardWidth: Int, cardHeight: Int) -> (size: (width: Int, height: Int), scale: Double) {
        if let size {
            let scale = fit
                ? FrameScene.fittingScale(cardWidth: cardWidth, cardHeight: cardHeight, canvasWidth: size.width, canvasHeight: size.height)
                : self.scale ?? 1
            return ((size.width, size.height), scale)
        }
        let room = FrameScene.defaultCanvasSize(cardWidth: cardWidth, cardHeight: cardHeight)
        guard let scale, scale != 1 else { return (room, 1) }
        return ((max(1, Int((Double(room.width) * scale).rounded())), max(1, Int((Double(room.height) * scale).rounded()))), scale)
    }

    /// A scene of `card` on this canvas.
    func scene(_ card: LoadedCard, pose: CardPose, visibility: FaceVisibility, shader: ShaderOptions) -> FrameScene {
        scene(front: card.front.face, back: card.back.face, pose: pose, visibility: visibility, shader: shader)
    }

    /// A scene of the faces `front` and `back` on this canvas.
    func scene(front: CardFace, back: CardFace, pose: CardPose, visibility: FaceVisibility, shader: ShaderOptions) -> FrameScene {
        let placement = placement(cardWidth: front.art.width, cardHeight: front.art.height)
        var scene = FrameScene(
            front: front, back: back, pose: pose, canvasSize: placement.size,
            background: background.value, visibility: visibility,
            parameters: shader.parameters, rotationConvention: shader.rotationConvention)
        scene.cardScale = placement.scale
        return scene
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
