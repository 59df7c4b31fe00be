import ArgumentParser
import Kira

/// The card's tilt, the same in every command that takes one.
struct TiltOptions: ParsableArguments {
    /// Tilts beyond a quarter turn face away from the viewer; the back (or a flip) shows that side.
    static let range: ClosedRange<Double> = -90...90

    @Option(name: .customLong("tilt-x"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the x axis in degrees, -90...90 (default: 0).", valueName: "deg"))
    var tiltX: Double?

    @Option(name: .customLong("tilt-y"), parsing: .unconditional,
            help: ArgumentHelp("Tilt about the y axis in degrees, -90...90 (default: 0).", valueName: "deg"))
    var tiltY: Double?

    func validate() throws {
        if let tiltX { try Check.number(tiltX, "--tilt-x", in: Self.range) }
        if let tiltY { try Check.number(tiltY, "--tilt-y", in: Self.range) }
    }

    /// Whether either tilt was given.
    var isGiven: Bool { tiltX != nil || tiltY != nil }
    var x: Double { tiltX ?? 0 }
    var y: Double { tiltY ?? 0 }
}

/// How the card is turned on screen: the tilt, the flip and their perspectives (seed 003's pose).
struct PoseOptions: ParsableArguments {
    @OptionGroup var tilt: TiltOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Flip angle in degrees: 0 front, 180 back, -720...720.", valueName: "deg"))
    var flip: Double = 0

    @Option(help: ArgumentHelp("Flip axis: y (seed 003), x, or xy (the diagonal 1,1,0).", valueName: "y|x|xy"))
    var axis: AxisArgument = .y

    @Option(help: ArgumentHelp("Perspective of the flip, 0...10 (seed 003: 0.7; 0 for none).", valueName: "p"))
    var perspective: Double = 0.7

    @Option(name: .customLong("tilt-perspective"), help: ArgumentHelp("Perspective of the tilts, 0...10 (1 is SwiftUI's).", valueName: "p"))
    var tiltPerspective: Double = 1

    @Flag(help: "Show the faces as seeds 002/003 do: an opacity crossfade by flip angle, instead of the face towards the viewer.")
    var crossfade = false

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
        try Check.number(flip, "--flip", in: -720...720)
        try Check.number(perspective, "--perspective", in: 0...10)
        try Check.number(tiltPerspective, "--tilt-perspective", in: 0...10)
    }

    var pose: CardPose {
        CardPose(tiltX: tilt.x, tiltY: tilt.y, flip: flip, flipAxis: axis.axis,
                 flipPerspective: perspective, tiltPerspective: tiltPerspective)
    }

    var visibility: FaceVisibility { crossfade ? .crossfade : .orientation }
}
