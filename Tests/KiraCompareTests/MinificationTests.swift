import KiraCompare
import KiraFormats
import KiraGeometry
import KiraImage
import KiraRender
import KiraSamples
import Testing

/// A card drawn small comes close to the same card drawn four times larger and averaged down:
/// faces drawn smaller than their texels are filtered, not sampled at pixel centres (which
/// scored 25 to 30 dB here, its text breaking into jaggies).
@Suite struct MinificationTests {
    static let face = try! CardFace(art: .rgba8(try! SampleCard.front()), mask: .rgba8(try! SampleCard.mask()))

    /// The sample card tilted by (6°, −9°) at `scale` on a canvas of `width × height`.
    static func render(scale: Double, width: Int, height: Int) throws -> RGBAImage<UInt8> {
        var scene = try FrameScene(front: face, back: face, pose: CardPose(tiltX: 6, tiltY: -9), canvasSize: (width, height),
                               background: .color(SIMD3(0x20, 0x30, 0x40) / 255))
        scene.cardScale = scale
        var frame = RGBAImage<UInt8>()
        try FrameRenderer(threads: 2).render(scene, into: &frame)
        return frame
    }

    @Test(arguments: [0.2, 0.35])
    func aSmallCardMatchesALargeOneAveragedDown(scale: Double) throws {
        let width = Int(800 * scale) / 2 * 2, height = Int(1000 * scale) / 2 * 2
        let small = try Self.render(scale: scale, width: width, height: height)
        // Four times larger, then drawn down with Lanczos.
        let large = try Self.render(scale: 4 * scale, width: 4 * width, height: 4 * height).lanczosScaled(width: width, height: height)
        let psnr = ImageComparison(.rgba8(small), .rgba8(large), comparesAlpha: false).psnr
        #expect(psnr >= 32, "PSNR \(psnr) dB at scale \(scale)")
    }
}
