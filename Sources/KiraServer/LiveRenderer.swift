#if Server
import KiraFiles
import KiraImage
import KiraRender
import KiraRequest
import KiraServerAPI
import NIOCore

/// A live preview connection's renderer: it makes each frame and cuts it down to what the
/// page needs.
///
/// The renderer, its canvas and two message buffers are kept while the card moves, so that
/// frame after frame allocates nothing (for a 1260-wide card, a 30 MB canvas and two 10 MB
/// messages), and let go once the card has rested a while (``LiveSession``). Only one frame is
/// made at a time: the connection's sender waits for each.
final class LiveRenderer: Sendable {
    /// A frame ready to send: the pixels of the rectangle the card's faces cover, encoded, and
    /// where they go in the window of the canvas the page shows; the rest of the window is one
    /// colour.
    struct Frame: Sendable {
        /// The image, with ``headerRoom`` bytes before its reader index for the message's
        /// header (``LiveSession``), so that the image is not copied again to put its header
        /// in front of it.
        var bytes: ByteBuffer
        /// Where `bytes`' pixels go in the window.
        var region: ImageRegion
        /// The colour (8-bit RGBA) of every window pixel outside `region`; nil when `region` is
        /// the whole window.
        var fill: SIMD4<UInt8>?
        /// The part of the frame's canvas the page shows.
        var window: ImageRegion
    }

    /// The bytes kept before each frame's image for its header: a frame's header (its length,
    /// the pose, the download URL and the command) is well under this, unless card paths are
    /// very long, when the message is assembled by copying instead.
    static let headerRoom = 8192

    private struct State {
        var renderer: FrameRenderer?
        var canvas = RGBAImage<UInt8>()
        /// A message buffer the page is done with, for the next frame.
        var spare: ByteBuffer?
    }

    private let threads: Int
    private let state = Locked(State())

    init(threads: Int) { self.threads = threads }

    /// Renders `scene` as `request` asks (8-bit: the live controls never ask for 16) and
    /// encodes the part of `window` the faces cover in `encoding`. Blocks: call it off Swift's
    /// cooperative threads.
    func frame(_ request: RenderRequest, scene: FrameScene, window: ImageRegion, encoding: LiveEncoding) throws -> Frame {
        try state.withLock { state in
            let renderer = state.renderer ?? FrameRenderer(threads: threads)
            state.renderer = renderer
            try renderer.render(scene, into: &state.canvas)
            let drawn = renderer.drawnRegions.first ?? ImageRegion(x: 0, y: 0, width: 0, height: 0)
            let region = drawn.intersection(window)
            var bytes = state.spare ?? ByteBuffer()
            state.spare = nil
            bytes.clear()
            bytes.writeRepeatingByte(0, count: Self.headerRoom)
            bytes.moveReaderIndex(forwardBy: Self.headerRoom)
            if let format = encoding.format {
                bytes.writeBytes(try request.encode(.rgba8(state.canvas.cropped(to: region)), as: format))
            } else {
                Self.write(region, of: state.canvas, to: &bytes)
            }
            let fill = region == window ? nil : Self.fill(of: state.canvas, outside: drawn)
            return Frame(bytes: bytes, region: ImageRegion(x: region.x - window.x, y: region.y - window.y, width: region.width, height: region.height),
                         fill: fill, window: window)
        }
    }

    /// Appends the pixels of `region` of `canvas` to `bytes`, rows top to bottom: one copy.
    private static func write(_ region: ImageRegion, of canvas: RGBAImage<UInt8>, to bytes: inout ByteBuffer) {
        let count = region.width * region.height * 4
        bytes.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { out in
            canvas.copyChannels(of: region, into: out.bindMemory(to: UInt8.self))
            return count
        }
    }

    /// Takes back a frame's message buffer once the page has it, for a later frame.
    func recycle(_ buffer: ByteBuffer) {
        state.withLock { $0.spare = buffer }
    }

    /// Frees the renderer, canvas and buffers until the next frame.
    func release() {
        state.withLock { $0 = State() }
    }

    /// The colour of `canvas` outside `region` (the renderer's background there), read off a
    /// corner that `region` leaves out; nil when it leaves none, being the whole canvas.
    static func fill(of canvas: RGBAImage<UInt8>, outside region: ImageRegion) -> SIMD4<UInt8>? {
        let corners = [(0, 0), (canvas.width - 1, 0), (0, canvas.height - 1), (canvas.width - 1, canvas.height - 1)]
        guard let (x, y) = corners.first(where: { x, y in
            region.isEmpty || x < region.x || y < region.y || x >= region.x + region.width || y >= region.y + region.height
        }), canvas.width > 0, canvas.height > 0 else { return nil }
        return canvas.pixel(x: x, y: y)
    }
}
#endif
