/// What the shader needs to know about a face, computed once per face and frame.
public struct KiraUniforms: Sendable, Equatable {
    /// The face normal as given.
    public var normal: SIMD3<Float>
    /// `generateAngleRGB(ANGLE_STRENGTH, normal)`: the hue the view angle selects.
    public var angleColorRGB: SIMD3<Float>

    /// - Precondition: `normal` has a finite, non-zero length (``isValidNormal(_:)``).
    public init(normal: SIMD3<Float>, parameters: KiraParameters = .seed) {
        precondition(Self.isValidNormal(normal), "the face normal must be finite and non-zero")
        self.normal = normal
        self.angleColorRGB = SeedShader.generateAngleRGB(parameters.angleStrength, normal)
    }

    /// Whether `normal` can be normalised: finite components and a non-zero length.
    public static func isValidNormal(_ normal: SIMD3<Float>) -> Bool {
        let lengthSquared = SeedShader.dot(normal, normal)
        return normal.x.isFinite && normal.y.isFinite && normal.z.isFinite
            && lengthSquared > 0 && lengthSquared.isFinite
    }
}
