/// How the card is turned on screen: the tilt-and-flip card's `rotation3DEffect`s (`seed003-tilt-flip`),
/// as a pose.
///
/// From the inside out, that card view stacks the front and the back (the back pre-rotated 180° about
/// the flip axis so that it reads correctly once flipped), flips the stack about `flipAxis` with
/// `flipPerspective`, then tilts it about x and about y with `tiltPerspective`. The kira shader
/// shades each face flat first, with the normal of ``normal(convention:)``.
public struct CardPose: Sendable, Equatable {
    /// The axis of the flip: y (`seed003-tilt-flip`), or x, or the diagonal (1, 1, 0) that
    /// `seed001-flip` cycles to.
    public enum FlipAxis: String, Sendable, CaseIterable {
        case y, x, diagonal

        @inlinable
        public var vector: SIMD3<Double> {
            switch self {
            case .y: SIMD3(0, 1, 0)
            case .x: SIMD3(1, 0, 0)
            case .diagonal: SIMD3(1, 1, 0)
            }
        }
    }

    /// Degrees about x (`seed003-tilt` clamps drags to ±10°).
    public var tiltX: Double
    /// Degrees about y.
    public var tiltY: Double
    /// Degrees of the flip: 0 shows the front, 180 the back.
    public var flip: Double
    public var flipAxis: FlipAxis
    /// `seed003-tilt-flip` flips with perspective 0.7.
    public var flipPerspective: Double
    /// `seed003-tilt-flip` tilts with SwiftUI's default perspective, 1.
    public var tiltPerspective: Double

    public init(tiltX: Double = 0, tiltY: Double = 0, flip: Double = 0, flipAxis: FlipAxis = .y,
                flipPerspective: Double = 0.7, tiltPerspective: Double = 1) {
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.flip = flip
        self.flipAxis = flipAxis
        self.flipPerspective = flipPerspective
        self.tiltPerspective = tiltPerspective
    }

    /// The front face's normal for the shader (`normalFromTilt`; the flip does not
    /// enter it). The back face is shaded with its negation.
    public func normal(convention: Rotation.Convention = .seed) -> SIMD3<Float> {
        Rotation.normalFromTilt(tiltXDegrees: Float(tiltX), tiltYDegrees: Float(tiltY), convention: convention)
    }

    /// The flip and the tilts, chained in the order the modifiers apply, for a card of `size`.
    public func cardHomography(size: SIMD2<Double>) -> Homography {
        let flipEffect = Homography.rotation3DEffect(
            degrees: flip, axis: flipAxis.vector, perspective: flipPerspective, size: size)
        let tiltXEffect = Homography.rotation3DEffect(
            degrees: tiltX, axis: SIMD3(1, 0, 0), perspective: tiltPerspective, size: size)
        let tiltYEffect = Homography.rotation3DEffect(
            degrees: tiltY, axis: SIMD3(0, 1, 0), perspective: tiltPerspective, size: size)
        return flipEffect.then(tiltXEffect).then(tiltYEffect)
    }

    /// The front face's map from its own pixels to the card's view.
    public func frontHomography(size: SIMD2<Double>) -> Homography { cardHomography(size: size) }

    /// The back face's map: its 180° pre-rotation about the flip axis (a mirror: the face is
    /// flat), then the card's.
    public func backHomography(size: SIMD2<Double>) -> Homography {
        Homography.rotation3DEffect(degrees: 180, axis: flipAxis.vector, size: size).then(cardHomography(size: size))
    }
}
