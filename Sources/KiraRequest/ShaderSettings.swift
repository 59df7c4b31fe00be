import KiraGeometry
import KiraShader

/// The shader's variant, and the rotation convention that turns a tilt into the face's normal.
public struct ShaderSettings: Sendable, Equatable {
    /// The shader's constants as a whole.
    public enum Preset: String, Sendable, CaseIterable {
        /// The Metal shader Kira reproduces: angle strength 10, the width flip.
        case seed
        /// The GLSL material that shader was ported from: angle strength 20, no flip.
        case threejs
    }

    public var preset = Preset.seed
    /// Overrides the preset's angle strength.
    public var angleStrength: Float?
    /// Overrides the preset's vertical flip.
    public var verticalFlip: KiraParameters.VerticalFlip?
    public var rotation = Rotation.Convention.seed
    /// The look (``/KiraShader/KiraParameters/foil``, ``/KiraShader/KiraParameters/intensity``,
    /// ``/KiraShader/KiraParameters/glare``).
    public var foil = Foil.kira
    public var intensity = KiraParameters.seed.intensity
    public var glare = KiraParameters.seed.glare

    public init(preset: Preset = .seed, angleStrength: Float? = nil, verticalFlip: KiraParameters.VerticalFlip? = nil,
                rotation: Rotation.Convention = .seed, foil: Foil = .kira, intensity: Float = 1, glare: Float = 0) {
        self.preset = preset
        self.angleStrength = angleStrength
        self.verticalFlip = verticalFlip
        self.rotation = rotation
        self.foil = foil
        self.intensity = intensity
        self.glare = glare
    }

    static let parameters: [RequestParameter<ShaderSettings>] = [
        .choice("shader", \.preset, words: [("original", .seed), ("threejs", .threejs)], aliases: [("seed", .seed)], default: .seed,
                help: "Shader constants: original (the Metal card shader Kira reproduces; also spelt seed) or threejs (its GLSL ancestor: angle strength 20, no y flip) (default: original)."),
        .number("angle_strength", \.angleStrength, in: -1000...1000, example: 20, valueName: "k",
                help: "Hue cycles per radian of view angle, -1000...1000 (overrides {shader})."),
        .choice("y_flip", \.verticalFlip, words: [("width", .seedWidth), ("height", .height), ("none", .none)],
                aliases: [("seed-width", .seedWidth)],
                help: "How the noise's y is flipped: width (by the card's width, the original shader's quirk; also spelt seed-width), height (by its height), or none (overrides {shader})."),
        .choice("rotation", \.rotation, default: .seed,
                help: "The rotation matrices that turn a tilt into the face normal: seed (transposed, as the original card view's) or standard (default: seed)."),
        .choice("foil", \.foil, words: Foil.all.map { ($0.name, $0) }, default: .kira,
                help: "The foil's look, each described in docs/looks.md (default: kira, the original's)."),
        .number("intensity", \.intensity, in: KiraParameters.intensityRange, default: KiraParameters.seed.intensity,
                valueName: "x", help: "How strong the foil's shine is, 0...2: 0 the art alone, 1 as designed (default: 1)."),
        .number("glare", \.glare, in: KiraParameters.glareRange, default: KiraParameters.seed.glare, example: 0.5, valueName: "x",
                help: "A soft highlight that follows the tilt, 0...1 (default: 0, none)."),
    ]

    /// The shader's constants: the preset's, with the overrides.
    public var parameters: KiraParameters {
        var parameters: KiraParameters = preset == .seed ? .seed : .threeJS
        if let angleStrength { parameters.angleStrength = angleStrength }
        if let verticalFlip { parameters.verticalFlip = verticalFlip }
        parameters.foil = foil
        parameters.intensity = intensity
        parameters.glare = glare
        return parameters
    }
}
