import KiraImage
import KiraPipeline
import KiraRender
import KiraVideo

/// Pipes every frame to ffmpeg (one ``/KiraVideo/VideoEncoder`` per `--video`), in order, at 8 bits per
/// channel; 16-bit frames are converted on a worker thread.
public final class VideoSink<Channel: LaneChannel>: FrameSink {
    private let encoders: [VideoEncoder]

    public init(_ encoders: [VideoEncoder]) { self.encoders = encoders }

    public func makeEncoder() -> FrameEncoder<Channel, RGBAImage<UInt8>?> {
        { frame, _, _ in frame is RGBAImage<UInt8> ? nil : eightBit(frame) }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: RGBAImage<UInt8>?) throws {
        let image = encoded ?? eightBit(frame)
        for encoder in encoders { try encoder.append(image) }
    }

    public func finish() throws {
        for encoder in encoders { try encoder.finish() }
    }
}
