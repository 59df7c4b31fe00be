/// Which face shows.
public enum FaceVisibility: Sendable, Equatable {
    /// The face whose front is towards the viewer, as a solid card: nothing shows through, and
    /// at exactly 90° neither face covers more than an edge.
    case orientation
    /// `seed003-tilt-flip`: both faces are drawn, the front with opacity `1 - flip / 180` and the
    /// back over it with `flip / 180` (clamped), as their animated `.opacity` modifiers do.
    case crossfade
    /// `seed002-flip`: the same crossfade with the back under the front (its ZStack lists the back
    /// first), which differs from ``crossfade`` while both are partly transparent.
    case crossfadeBackUnder
    /// `seed000-flip` and `seed004-flip`: the faces turn separately, each by its own angle about the flip axis
    /// (the back is not pre-rotated, and the pose's `flip` is unused); the back is drawn first and
    /// the front over it, each only while it faces the viewer.
    case separateFaces(front: Double, back: Double)
    /// `seed001-flip`: one view turns; while it is turned by 90° or more the back's content replaces
    /// the front's in the same, turned view, so it shows mirrored (that card view's back is plain).
    case switchAtQuarterTurn
}

/// A side of the card.
public enum CardSide: Sendable {
    case front, back
}

/// One face to draw: which side, shaded with which normal, placed by which homography (face
/// points to canvas), at which opacity.
@usableFromInline
package struct FaceLayer: Sendable, Equatable {
    package let side: CardSide
    package let normal: SIMD3<Float>
    package let homography: Homography
    package let opacity: Float
}

/// The faces of one frame, bottom first: at most two, stored inline so that choosing them
/// allocates nothing.
package struct FaceLayers: RandomAccessCollection, Sendable {
    // Inlinable, so that indexing the layers from another module is plain code (through the
    // collection's witnesses each element access allocates a coroutine frame).
    @usableFromInline var first: FaceLayer?
    @usableFromInline var second: FaceLayer?

    package init() {}

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { second != nil ? 2 : (first != nil ? 1 : 0) }
    @inlinable package subscript(index: Int) -> FaceLayer {
        precondition(index >= 0 && index < endIndex, "face layer index out of range")
        return index == 0 ? first! : second!
    }

    /// Adds `layer` on top.
    package mutating func append(_ layer: FaceLayer) {
        precondition(second == nil, "at most two face layers")
        if first == nil { first = layer } else { second = layer }
    }
}

extension FaceVisibility {
    /// The faces SwiftUI draws for a card of `size` points in `pose`, bottom first, mapped by
    /// `toCanvas` after the card's own homographies: the policy of each seed.
    package func layers(pose: CardPose, size: SIMD2<Double>, toCanvas: Homography,
                        convention: Rotation.Convention) -> FaceLayers {
        let normal = pose.normal(convention: convention)
        let frontMap = pose.frontHomography(size: size).then(toCanvas)
        let backMap = pose.backHomography(size: size).then(toCanvas)
        var layers = FaceLayers()
        switch self {
        case .orientation:
            if frontMap.preservesOrientation {
                layers.append(FaceLayer(side: .front, normal: normal, homography: frontMap, opacity: 1))
            } else if backMap.preservesOrientation {
                layers.append(FaceLayer(side: .back, normal: -normal, homography: backMap, opacity: 1))
            }
        case .crossfade, .crossfadeBackUnder:
            let progress = Float(min(max(pose.flip / 180, 0), 1))
            let front = FaceLayer(side: .front, normal: normal, homography: frontMap, opacity: 1 - progress)
            let back = FaceLayer(side: .back, normal: -normal, homography: backMap, opacity: progress)
            layers.append(self == .crossfade ? front : back)
            layers.append(self == .crossfade ? back : front)
        case .switchAtQuarterTurn:
            // The angle decides, as that card view's AnimatableModifier does (`rotationAngle < 90`).
            let turned = abs(pose.flip.truncatingRemainder(dividingBy: 360))
            let showsFront = turned < 90 || turned > 270
            layers.append(FaceLayer(side: showsFront ? .front : .back, normal: showsFront ? normal : -normal,
                                    homography: frontMap, opacity: 1))
        case .separateFaces(let frontAngle, let backAngle):
            func map(_ degrees: Double) -> Homography {
                var turned = pose
                turned.flip = degrees
                return turned.cardHomography(size: size).then(toCanvas)
            }
            let backTurned = map(backAngle), frontTurned = map(frontAngle)
            if backTurned.preservesOrientation {
                layers.append(FaceLayer(side: .back, normal: -normal, homography: backTurned, opacity: 1))
            }
            if frontTurned.preservesOrientation {
                layers.append(FaceLayer(side: .front, normal: normal, homography: frontTurned, opacity: 1))
            }
        }
        return layers
    }
}
