import KiraGeometry
import KiraImage
import KiraPNG
import KiraPipeline
import Testing
@testable import KiraRender

@Suite struct FramePipelineTests {
    static func scenes(_ count: Int) -> [FrameScene] {
        let base = FrameRendererTests.scene()
        return (0..<count).map { k in
            var scene = base
            scene.pose = CardPose(tiltX: Double(k) - 3, tiltY: 8 - 2 * Double(k), flip: 25 * Double(k))
            return scene
        }
    }

    /// Encodes each frame as a PNG and records what it was given.
    final class RecordingSink: FrameSink {
        var frames: [RGBAImage<UInt8>] = []
        var decoded: [RGBAImage<UInt8>] = []
        var previousOK: [Bool] = []
        var indices: [Int] = []
        var finished = 0
        let failEncodingAt: Int?
        let failConsumingAt: Int?

        init(failEncodingAt: Int? = nil, failConsumingAt: Int? = nil) {
            self.failEncodingAt = failEncodingAt
            self.failConsumingAt = failConsumingAt
        }

        func makeEncoder() -> FrameEncoder<UInt8, (png: [UInt8], previous: RGBAImage<UInt8>?, index: Int)> {
            let failAt = failEncodingAt
            return { frame, previous, index in
                if index == failAt { throw Refused() }
                return (try PNGCodec.encode(frame, options: .fast), previous?.image, index)
            }
        }

        func consume(_ frame: RGBAImage<UInt8>, index: Int,
                     encoded: (png: [UInt8], previous: RGBAImage<UInt8>?, index: Int)) throws {
            if index == failConsumingAt { throw Refused() }
            indices.append(index)
            #expect(encoded.index == index)
            previousOK.append(encoded.previous == frames.last)
            frames.append(frame)
            decoded.append(try PNGCodec.decode(encoded.png).rgba8)
        }

        func finish() throws { finished += 1 }
    }

    @Test(arguments: [1, 3, 8])
    func framesArriveInOrderAndEqualSingleRenders(batchSize: Int) throws {
        let scenes = Self.scenes(7)
        let first = RecordingSink(), second = RecordingSink()
        try FramePipeline(threads: 2, batchSize: batchSize).render(scenes, to: [first, second])
        for sink in [first, second] {
            #expect(sink.indices == Array(0..<7))
            #expect(sink.finished == 1)
            // Each encoder saw the frame before its own (nil for the first), unchanged.
            #expect(sink.previousOK == Array(repeating: true, count: 7))
        }
        for (k, scene) in scenes.enumerated() {
            var single = RGBAImage<UInt8>()
            try FrameRenderer(threads: 1).render(scene, into: &single)
            #expect(first.frames[k] == single, "frame \(k)")
            #expect(first.decoded[k] == single, "frame \(k), encoded")
        }
    }

    struct Refused: Error {}

    @Test func errorsStopTheSequence() {
        let failing = RecordingSink(failEncodingAt: 0)
        #expect(throws: Refused.self) { try FramePipeline(batchSize: 2).render(Self.scenes(5), to: [failing]) }
        #expect(failing.indices.isEmpty && failing.finished == 0)
        let refusing = RecordingSink(failConsumingAt: 3), other = RecordingSink()
        #expect(throws: Refused.self) {
            try FramePipeline(batchSize: 2).render(Self.scenes(5), to: [refusing, other])
        }
        #expect(refusing.indices == [0, 1, 2] && refusing.finished == 0 && other.finished == 0)
    }
}
