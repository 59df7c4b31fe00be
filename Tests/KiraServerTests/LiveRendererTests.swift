#if Server
import Foundation
import KiraAnimation
import KiraGeometry
import KiraImage
import KiraRender
import NIOCore
@testable import KiraServer
import Testing

/// A live frame as bytes: a raw image is the frame's canvas cut to the region, its header goes
/// into the room left before it, and frame after frame takes the buffer the page is done with.
@Suite struct LiveRendererTests {
    @Test func aRawImageIsTheFramesRegionOfTheCanvas() throws {
        let (card, controls, window) = try Self.sample(width: 200)
        let renderer = LiveRenderer(threads: 2)
        for pose in [CardPose(tiltX: 4, tiltY: -7), CardPose(tiltX: -3, tiltY: 8, flip: 30), CardPose(flip: 170), CardPose(flip: 90)] {
            let request = try controls.request(pose: pose, card: card)
            let scene = try request.scene(for: card.faces)
            let frame = try renderer.frame(request, scene: scene, window: window, encoding: .raw)
            var canvas = RGBAImage<UInt8>()
            try FrameRenderer(threads: 1).render(scene, into: &canvas)
            let region = ImageRegion(x: window.x + frame.region.x, y: window.y + frame.region.y,
                                     width: frame.region.width, height: frame.region.height)
            #expect(frame.bytes.readerIndex == LiveRenderer.headerRoom)
            #expect(Array(frame.bytes.readableBytesView) == canvas.cropped(to: region).channels, "\(pose)")
        }
    }

    @Test func aRecycledBufferTakesTheNextFrame() throws {
        let (card, controls, window) = try Self.sample(width: 200)
        let renderer = LiveRenderer(threads: 2)
        func frame(_ pose: CardPose) throws -> LiveRenderer.Frame {
            let request = try controls.request(pose: pose, card: card)
            return try renderer.frame(request, scene: try request.scene(for: card.faces), window: window, encoding: .raw)
        }
        // A buffer far larger than a 200-wide frame needs: the frame written into it keeps its
        // capacity, where a new buffer would be sized for the frame.
        let large = 1 << 24
        var recycled = ByteBuffer()
        recycled.reserveCapacity(large)
        renderer.recycle(consume recycled)
        let first = try frame(CardPose(tiltX: 5, tiltY: 5))
        #expect(first.bytes.capacity >= large, "the recycled buffer takes the next frame")
        #expect(try frame(CardPose()).bytes.capacity < large, "a buffer is taken once")
        // A buffer still held elsewhere (a frame in flight) is not written over: the next frame
        // gets another.
        let pixels = Array(first.bytes.readableBytesView)
        renderer.recycle(first.bytes)
        let second = try frame(CardPose(tiltX: -5, tiltY: 3))
        #expect(Array(first.bytes.readableBytesView) == pixels)
        #expect(Array(second.bytes.readableBytesView) != pixels)
    }

    @Test func theHeaderGoesBeforeTheImageInTheRoomLeftForIt() throws {
        for command in ["kira render --tilt-x=1 -o card.png", String(repeating: "x", count: 3 * LiveRenderer.headerRoom)] {
            var image = ByteBuffer()
            image.writeRepeatingByte(0, count: LiveRenderer.headerRoom)
            image.moveReaderIndex(forwardBy: LiveRenderer.headerRoom)
            image.writeBytes([1, 2, 3, 4, 5])
            let header = LiveFrameHeader(
                seq: 7, input: 3, mediaType: LiveEncoding.raw.mediaType, tiltX: 1, tiltY: 0, flip: 0, back: false, moving: false,
                renderMilliseconds: 2, url: "/v1/cards/sample/render.png?tilt_x=1", command: command, card: "sample", width: 200,
                canvasWidth: 10, canvasHeight: 10, window: ImageRegion(x: 0, y: 0, width: 10, height: 10),
                region: ImageRegion(x: 0, y: 0, width: 1, height: 1), fill: nil)
            LiveSession.message(header: header, image: &image)
            let start = image.readerIndex
            let length = image.readInteger(endianness: .big, as: UInt32.self).map(Int.init) ?? -1
            let json = image.readBytes(length: length) ?? []
            let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
            #expect(decoded["command"] as? String == command)
            #expect(decoded["seq"] as? Int == 7)
            #expect(image.readBytes(length: image.readableBytes) == [1, 2, 3, 4, 5])
            // A short header sits right before the image, in the room left for it; a long one
            // starts a new buffer.
            #expect(start == (4 + length <= LiveRenderer.headerRoom ? LiveRenderer.headerRoom - 4 - length : 0))
        }
    }

    /// The sample card at `width` and the page's window of it at the default tilt limit.
    private static func sample(width: Int) throws -> (CardLibrary.Card, LiveControls, ImageRegion) {
        let cards = try CardLibrary.load(directory: nil, textureBudget: 1 << 30)
        let card = try #require(cards[CardLibrary.sampleID])
        var controls = LiveControls(), interaction = InteractiveCard()
        try controls.set("width", to: String(width), cards: cards, interaction: &interaction)
        return (card, controls, controls.window(for: card, tiltLimit: interaction.tiltLimit))
    }
}
#endif
