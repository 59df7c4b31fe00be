import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender

/// Encodes every frame as `kira animate` does numbered PNGs, and only counts the bytes.
final class EncodedBytesSink: FrameSink {
    private(set) var bytes = 0

    func makeEncoder() -> FrameEncoder<UInt8, Int> {
        { frame, _, _ in try PNGCodec.encode(frame, options: .fast).count }
    }

    func consume(_ frame: RGBAImage<UInt8>, index: Int, encoded: Int) throws { bytes += encoded }

    func finish() throws {}
}
