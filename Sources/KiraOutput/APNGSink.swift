import KiraFormats
import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender

/// Streams the frames into an animated PNG: each frame is encoded on a worker thread as the
/// rectangle that changed since the frame before (``/KiraPNG/APNGFrame/encode(_:after:candidates:options:)``) and
/// written to the file in order as soon as it is its turn.
public final class APNGSink<Channel: LaneChannel>: FrameSink {
    private let writer: APNGFileWriter
    private let scaledSize: (width: Int, height: Int)?

    /// Opens the output (nothing appears at `path` before ``finish()``) for frames of `width` ×
    /// `height`, stored at `scaledSize` when given (Lanczos, `RGBAImage.lanczosScaled(width:height:)`).
    public init(path: String, width: Int, height: Int, frameCount: Int, framesPerSecond: Int,
                scaledSize: (width: Int, height: Int)? = nil) throws {
        let stored = scaledSize ?? (width, height)
        writer = try APNGFileWriter(path: path, width: stored.width, height: stored.height, frameCount: frameCount,
                                    framesPerSecond: framesPerSecond)
        self.scaledSize = scaledSize
    }

    public func makeEncoder() -> FrameEncoder<Channel, APNGFrame> {
        guard let size = scaledSize else {
            return { frame, previous, _ in try APNGFrame.encode(frame, after: previous?.image, candidates: previous?.changes) }
        }
        // The frame before is scaled again beside this one (frames are encoded in any order, on
        // several threads); where they differ is found on the scaled pixels.
        return { frame, previous, _ in
            try APNGFrame.encode(try frame.lanczosScaled(width: size.width, height: size.height),
                                 after: try previous?.image.lanczosScaled(width: size.width, height: size.height))
        }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: APNGFrame) throws {
        try writer.append(encoded)
    }

    public func finish() throws { try writer.finish() }
}
