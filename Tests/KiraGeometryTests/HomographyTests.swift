#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import KiraGeometry

@Suite struct HomographyTests {
    static let size = SIMD2<Double>(630, 880)

    static func close(_ a: SIMD2<Double>?, _ b: SIMD2<Double>, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        let d = a - b
        return abs(d.x) <= tolerance && abs(d.y) <= tolerance
    }

    @Test(arguments: [SIMD3<Double>(0, 1, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0.3, -0.2, 0.9)], [0.3, 0.7, 1.0, 0])
    func angleZeroIsTheIdentity(axis: SIMD3<Double>, perspective: Double) {
        let h = Homography.rotation3DEffect(degrees: 0, axis: axis, perspective: perspective, size: Self.size)
        #expect(h == .identity, "\(h)")
    }

    @Test func halfTurnAboutYMirrorsXAboutTheAnchor() {
        let h = Homography.rotation3DEffect(degrees: 180, axis: SIMD3(0, 1, 0), perspective: 0.7, size: Self.size)
        for p in [SIMD2<Double>(0, 0), SIMD2(100, 37), SIMD2(630, 880), SIMD2(315, 440), SIMD2(-20, 1000)] {
            #expect(Self.close(h.apply(p), SIMD2(630 - p.x, p.y), 1e-9), "\(p) -> \(String(describing: h.apply(p)))")
            #expect(abs(h.homogeneous(p).z - 1) < 1e-12, "no perspective change at 180°")
        }
        #expect(!h.preservesOrientation)
    }

    @Test(arguments: [0.0, 17, -33, 90, 145], [SIMD2<Double>(0.5, 0.5), SIMD2(0, 0), SIMD2(1, 0.25)])
    func theAnchorIsFixed(degrees: Double, anchor: SIMD2<Double>) {
        let h = Homography.rotation3DEffect(degrees: degrees, axis: SIMD3(1, 2, 0.5), anchor: anchor, perspective: 0.8, size: Self.size)
        let a = anchor * Self.size
        #expect(Self.close(h.apply(a), a, 1e-9))
    }

    @Test func rightEdgeRecedesForPositiveYRotation() {
        let h = Homography.rotation3DEffect(degrees: 30, axis: SIMD3(0, 1, 0), size: Self.size)
        let top = h.apply(SIMD2(630, 0))!, bottom = h.apply(SIMD2(630, 880))!
        let leftTop = h.apply(SIMD2(0, 0))!, leftBottom = h.apply(SIMD2(0, 880))!
        // The right edge is shorter (farther) and moves in; the left edge is longer (nearer) and
        // moves out.
        #expect(bottom.y - top.y < 880 && leftBottom.y - leftTop.y > 880)
        #expect(top.x < 630 && leftTop.x < 0)
        #expect(h.homogeneous(SIMD2(630, 440)).z > 1 && h.homogeneous(SIMD2(0, 440)).z < 1)
    }

    @Test func matchesTheClosedFormForAYRotation() {
        // A point (x, y) relative to the anchor maps to (x·c, y) / (1 + x·s / d).
        let degrees = 25.0, perspective = 0.7
        let h = Homography.rotation3DEffect(degrees: degrees, axis: SIMD3(0, 1, 0), perspective: perspective, size: Self.size)
        let c = cos(degrees * .pi / 180), s = sin(degrees * .pi / 180), d = 880 / perspective
        for p in [SIMD2<Double>(0, 0), SIMD2(600, 100), SIMD2(200, 800)] {
            let q = p - Self.size / 2
            let w = 1 + q.x * s / d
            let expected = SIMD2(q.x * c / w, q.y / w) + Self.size / 2
            #expect(Self.close(h.apply(p), expected, 1e-9), "\(p)")
        }
    }

    @Test func chainingOrderMattersAndFollowsTheModifiers() {
        // Rotations about x and about y through one anchor commute once flattened; a diagonal
        // flip and a tilt do not.
        let flip = Homography.rotation3DEffect(degrees: 40, axis: SIMD3(1, 1, 0), perspective: 0.7, size: Self.size)
        let tilt = Homography.rotation3DEffect(degrees: 20, axis: SIMD3(1, 0, 0), size: Self.size)
        let p = SIMD2<Double>(100, 50)
        // `.rotation3DEffect(flip).rotation3DEffect(tilt)`: the flip acts on the view first.
        let chained = flip.then(tilt)
        #expect(Self.close(chained.apply(p), tilt.apply(flip.apply(p)!)!, 1e-9))
        #expect(!Self.close(chained.apply(p), tilt.then(flip).apply(p)!, 1e-3), "the other order differs")
    }

    @Test func inverseUndoesTheMap() {
        let h = CardPose(tiltX: 8, tiltY: -12, flip: 35, flipAxis: .diagonal).cardHomography(size: Self.size)
        let inverse = h.inverse!
        for p in [SIMD2<Double>(0, 0), SIMD2(630, 0), SIMD2(123, 456), SIMD2(630, 880)] {
            #expect(Self.close(inverse.apply(h.apply(p)!), p, 1e-7))
        }
        let product = h * inverse
        #expect(Self.close(product.apply(SIMD2(3, 4)), SIMD2(3, 4), 1e-9))
    }

    @Test func orientationTellsWhichSideFacesTheViewer() {
        for flip in [0.0, 45, 89, 91, 135, 180, 269, 271] {
            let pose = CardPose(flip: flip)
            let front = pose.frontHomography(size: Self.size), back = pose.backHomography(size: Self.size)
            let frontVisible = flip < 90 || flip > 270
            #expect(front.preservesOrientation == frontVisible, "flip \(flip)")
            #expect(back.preservesOrientation == !frontVisible, "flip \(flip)")
        }
    }

    @Test func backReadsCorrectlyAfterAFullFlip() {
        for axis in CardPose.FlipAxis.allCases {
            let back = CardPose(flip: 180, flipAxis: axis).backHomography(size: SIMD2(630, 630))
            for p in [SIMD2<Double>(10, 20), SIMD2(600, 33)] {
                #expect(Self.close(back.apply(p), p, 1e-9), "\(axis): the back is neither mirrored nor turned")
            }
        }
    }
}
