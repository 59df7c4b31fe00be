import KiraImage
import KiraLaneJobs
import KiraRender

/// A destination for the frames of an animation: numbered PNG files, an animated PNG, a contact
/// sheet, a video encoder's pipe.
///
/// ``FramePipeline`` gives every frame to every sink in two steps, so that the costly
/// part of output (compressing) keeps every core busy while the frames in order still reach a
/// single file:
/// 1. the sink's encoder (``makeEncoder()``) runs on worker threads, for several frames at once
///    and in any order, while later frames render. It sees the frame and the one before it
///    (for formats that store only what changed);
/// 2. ``consume(_:index:encoded:)`` then receives each frame with what its encoder returned,
///    one at a time, in order, on the thread that called
///    ``FrameStream/submit(_:)`` (or ``FramePipeline/render(_:to:)``);
/// 3. ``finish()`` follows the last frame. A sink that is dropped without it (because rendering
///    or another sink failed) must leave nothing behind: no partial file.
public protocol FrameSink<Channel>: AnyObject {
    /// The frames' channel type (8- or 16-bit).
    associatedtype Channel: LaneChannel
    /// What the encoder hands to ``consume(_:index:encoded:)``; `Void` for sinks with nothing
    /// to do off the rendering thread.
    associatedtype Encoded: Sendable

    /// The work done for each frame on a worker thread: given the frame, the frame before it
    /// (nil for the first) and the frame's index, what ``consume(_:index:encoded:)`` will
    /// receive. Called once, before the first frame.
    func makeEncoder() -> FrameEncoder<Channel, Encoded>

    /// Takes frame `index`, in order, on the rendering thread. A sink may keep the image: the
    /// renderer writes later frames into its buffer only once no one else holds it (copy on
    /// write).
    func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: Encoded) throws

    /// Completes the output after the last frame.
    func finish() throws
}

/// A sink's per-frame work: (frame, the frame before it or nil, the frame's index) → what the
/// sink then consumes.
public typealias FrameEncoder<Channel: LaneChannel, Encoded> =
    @Sendable (_ frame: RGBAImage<Channel>, _ previous: PreviousFrame<Channel>?, _ index: Int) throws -> Encoded

/// The frame before the one an encoder is given, and where the two can differ.
public struct PreviousFrame<Channel: LaneChannel>: Sendable {
    /// Its pixels.
    public let image: RGBAImage<Channel>
    /// A rectangle outside which the two frames are equal, from where the renderer drew their
    /// faces (both show the same background elsewhere); nil when that is not known.
    public let changes: ImageRegion?

    public init(image: RGBAImage<Channel>, changes: ImageRegion?) {
        self.image = image
        self.changes = changes
    }
}

/// A sink with its types erased, so that sinks of different kinds go in one list.
struct ErasedFrameSink<Channel: LaneChannel> {
    let encode: FrameEncoder<Channel, any Sendable>
    let consume: (RGBAImage<Channel>, Int, any Sendable) throws -> Void
    let finish: () throws -> Void

    init<Sink: FrameSink>(_ sink: Sink) where Sink.Channel == Channel {
        let encoder = sink.makeEncoder()
        encode = { frame, previous, index in try encoder(frame, previous, index) }
        // The value came from this sink's own encoder (the renderer keeps them paired).
        consume = { frame, index, encoded in try sink.consume(frame, index: index, encoded: encoded as! Sink.Encoded) }
        finish = { try sink.finish() }
    }
}
