import KiraImage
import KiraRender
import KiraRequest
import NIOCore

/// A live preview connection's renderer: it makes each frame and cuts it down to what the
/// page needs.
///
/// The renderer and its canvas are kept while the card moves, so that frame after frame
/// allocates nothing (for a 630-wide card, a 7.4 MB canvas and a 2.2 MB shaded face), and let go
/// once the card rests. Only one frame is made at a time: the
/// connection's sender waits for each.
final class LiveRenderer: Sendable {
    /// A frame ready to send: the pixels of the rectangle the card's faces cover, encoded, and
    /// where they go in the window of the canvas the page shows; the rest of the window is one
    /// colour.
    struct Frame: Sendable {
        var bytes: ByteBuffer
        /// Where `bytes`' pixels go in the window.
        var region: ImageRegion
        /// The colour (8-bit RGBA) of every window pixel outside `region`; nil when `region` is
        /// the whole window.
        var fill: SIMD4<UInt8>?
        /// The part of the frame's canvas the page shows.
        var window: ImageRegion
    }

    private struct State {
        var renderer: FrameRenderer?
        var canvas = RGBAImage<UInt8>(width: 0, height: 0)
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
            let canvas = state.canvas
            let drawn = renderer.drawnRegions.first ?? ImageRegion(x: 0, y: 0, width: 0, height: 0)
            let region = drawn.intersection(window)
            let part = canvas.cropped(to: region)
            let bytes: ByteBuffer
            if let format = encoding.format {
                bytes = ByteBuffer(bytes: try request.encode(.rgba8(part), as: format))
            } else {
                bytes = part.channels.withUnsafeBytes { ByteBuffer(bytes: $0) }
            }
            let fill = region == window ? nil : Self.fill(of: canvas, outside: drawn)
            return Frame(bytes: bytes, region: ImageRegion(x: region.x - window.x, y: region.y - window.y, width: region.width, height: region.height),
                         fill: fill, window: window)
        }
    }

    /// Frees the renderer and canvas until the next frame.
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
