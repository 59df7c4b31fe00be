import KiraGeometry
import KiraImage
import Testing
@testable import KiraRender

@Suite struct FrameSequenceTests {
    static func scenes(_ count: Int) -> [FrameScene] {
        let base = FrameRendererTests.scene()
        return (0..<count).map { k in
            var scene = base
            scene.pose = CardPose(tiltX: Double(k) - 3, tiltY: 8 - 2 * Double(k), flip: 25 * Double(k))
            return scene
        }
    }

    @Test(arguments: [1, 3, 8])
    func framesArriveInOrderAndEqualSingleRenders(batchSize: Int) throws {
        let scenes = Self.scenes(7)
        var delivered: [Int] = []
        var frames: [RGBAImage<UInt8>] = []
        try FrameSequenceRenderer(threads: 2, batchSize: batchSize).render(
            scenes, as: UInt8.self, encode: { try PNGCodec.encode($0, options: .fast) },
            deliver: { index, bytes in
                delivered.append(index)
                frames.append(try PNGCodec.decode(bytes).rgba8)
            })
        #expect(delivered == Array(0..<7))
        for (k, scene) in scenes.enumerated() {
            var single = RGBAImage<UInt8>(width: 0, height: 0)
            try FrameRenderer(threads: 1).render(scene, into: &single)
            #expect(frames[k] == single, "frame \(k)")
        }
    }

    struct Refused: Error {}

    @Test func errorsStopTheSequence() {
        var delivered = 0
        #expect(throws: Refused.self) {
            try FrameSequenceRenderer(batchSize: 2).render(
                Self.scenes(5), as: UInt8.self, encode: { _ in throw Refused() }, deliver: { _, _ in delivered += 1 })
        }
        #expect(delivered == 0)
        #expect(throws: Refused.self) {
            try FrameSequenceRenderer(batchSize: 2).render(
                Self.scenes(5), as: UInt8.self, encode: { _ in [1] },
                deliver: { index, _ in if index == 3 { throw Refused() }; delivered += 1 })
        }
        #expect(delivered == 3)
    }
}
