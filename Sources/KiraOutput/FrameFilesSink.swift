import KiraFormats
import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender

/// Writes every frame whole as its own file, `frame-0000.png`, `frame-0001.png`, … (or `.webp`,
/// `.jpg`) in a directory; frames are encoded on worker threads. At the end it writes the frames'
/// times (`frames.csv`) and removes numbered frames an earlier run left (``FrameDirectory``).
public final class FrameFilesSink<Channel: LaneChannel>: FrameSink {
    public let folder: FrameDirectory
    /// Each frame's time in seconds, for the index.
    public let times: [Double]
    private let encoder: StillEncoder

    /// Frames stored by `encoder` (the format, its settings and the scale), named with
    /// `fileExtension`.
    public init(directory: String, times: [Double], encoder: StillEncoder = StillEncoder(.png(.fast)), fileExtension: String = "png") {
        folder = FrameDirectory(path: directory, fileExtension: fileExtension)
        self.times = times
        self.encoder = encoder
    }

    public func makeEncoder() -> FrameEncoder<Channel, [UInt8]> {
        let encoder = self.encoder
        return { frame, _, _ in try encoder.encode(frame) }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: [UInt8]) throws {
        try folder.write(frame: index, bytes: encoded)
    }

    public func finish() throws {
        try folder.finish(times: times)
    }
}
