import KiraImage
import KiraRender

/// Streams the frames into an animated PNG: each frame is encoded on a worker thread as the
/// rectangle that changed since the frame before (``/KiraImage/APNGFrame/encode(_:after:candidates:options:)``) and
/// written to the file in order as soon as it is its turn.
public final class APNGSink<Channel: LaneChannel>: FrameSink {
    private let writer: APNGFileWriter

    /// Opens the output (nothing appears at `path` before ``finish()``).
    public init(path: String, width: Int, height: Int, frameCount: Int, framesPerSecond: Int) throws {
        writer = try APNGFileWriter(path: path, width: width, height: height, frameCount: frameCount,
                                    framesPerSecond: framesPerSecond)
    }

    public func makeEncoder() -> FrameEncoder<Channel, APNGFrame> {
        { frame, previous, _ in try APNGFrame.encode(frame, after: previous?.image, candidates: previous?.changes) }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: APNGFrame) throws {
        try writer.append(encoded)
    }

    public func finish() throws { try writer.finish() }
}
