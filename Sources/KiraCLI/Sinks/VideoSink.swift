import Kira

/// Pipes every frame to ffmpeg (one ``VideoEncoder`` per `--video`), in order, at 8 bits per
/// channel; 16-bit frames are converted on a worker thread.
final class VideoSink<Channel: LaneChannel>: FrameSink {
    private let encoders: [VideoEncoder]

    init(_ encoders: [VideoEncoder]) { self.encoders = encoders }

    func makeEncoder() -> FrameEncoder<Channel, RGBAImage<UInt8>?> {
        { frame, _, _ in frame is RGBAImage<UInt8> ? nil : eightBit(frame) }
    }

    func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: RGBAImage<UInt8>?) throws {
        let image = encoded ?? eightBit(frame)
        for encoder in encoders { try encoder.append(image) }
    }

    func finish() throws {
        for encoder in encoders { try encoder.finish() }
    }
}
