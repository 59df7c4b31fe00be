import ArgumentParser
import Kira

/// How many threads render.
struct ThreadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Worker threads (default: one per processor).", valueName: "n"))
    var threads: Int?

    func validate() throws {
        if let threads { try Check.integer(threads, "--threads", in: 1...1024) }
    }

    var count: Int { threads ?? TileScheduler.processorCount }
}

/// The shader's variant, and the rotation convention that turns a tilt into its normal.
struct ShaderOptions: ParsableArguments {
    enum Preset: String, ExpressibleByArgument, CaseIterable {
        case seed, threejs
    }

    @Option(name: .customLong("shader"), help: ArgumentHelp(
        "Shader constants: seed (seed 003's Metal shader) or threejs (its GLSL ancestor: angle strength 20, no y flip).",
        valueName: "seed|threejs"))
    var preset: Preset = .seed

    @Option(name: .customLong("angle-strength"), parsing: .unconditional,
            help: ArgumentHelp("Hue cycles per radian of view angle, -1000...1000 (overrides --shader).", valueName: "k"))
    var angleStrength: Float?

    @Option(name: .customLong("y-flip"),
            help: ArgumentHelp("Noise y flip: seed-width (the seed's quirk), height, or none (overrides --shader).",
                               valueName: "seed-width|height|none"))
    var yFlip: YFlip?

    @Option(help: ArgumentHelp("Rotation matrices of normalFromTilt: seed (transposed, as seed 003) or standard.", valueName: "seed|standard"))
    var rotation: RotationArgument = .seed

    enum YFlip: String, ExpressibleByArgument, CaseIterable {
        case seedWidth = "seed-width", height, none
    }

    enum RotationArgument: String, ExpressibleByArgument, CaseIterable {
        case seed, standard
    }

    func validate() throws {
        if let angleStrength { try Check.number(angleStrength, "--angle-strength", in: -1000...1000) }
    }

    var parameters: KiraParameters {
        var parameters: KiraParameters = preset == .seed ? .seed : .threeJS
        if let angleStrength { parameters.angleStrength = angleStrength }
        switch yFlip {
        case .seedWidth: parameters.verticalFlip = .seedWidth
        case .height: parameters.verticalFlip = .height
        case .none?: parameters.verticalFlip = .none
        case nil: break
        }
        return parameters
    }

    var rotationConvention: Rotation.Convention { rotation == .seed ? .seed : .standard }
}
