import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender

/// Encodes every frame as `kira animate --apng` does, and only counts the bytes.
final class APNGBytesSink: FrameSink {
    private(set) var bytes = 0

    func makeEncoder() -> FrameEncoder<UInt8, Int> {
        { frame, previous, _ in
            try APNGFrame.encode(frame, after: previous?.image, candidates: previous?.changes).imageData.count
        }
    }

    func consume(_ frame: RGBAImage<UInt8>, index: Int, encoded: Int) throws { bytes += encoded }

    func finish() throws {}
}
