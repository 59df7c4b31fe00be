import KiraImage
import KiraRender

/// Writes every frame whole as its own PNG file, `frame-0000.png`, `frame-0001.png`, … in a
/// directory; frames are encoded on worker threads. At the end it writes the frames' times
/// (`frames.csv`) and removes numbered frames an earlier, longer run left (``FrameDirectory``).
public final class PNGFramesSink<Channel: LaneChannel>: FrameSink {
    public let folder: FrameDirectory
    /// Each frame's time in seconds, for the index.
    public let times: [Double]
    private let options: PNGCodec.EncodingOptions

    public init(directory: String, times: [Double], options: PNGCodec.EncodingOptions = .fast) {
        folder = FrameDirectory(path: directory)
        self.times = times
        self.options = options
    }

    public func makeEncoder() -> FrameEncoder<Channel, [UInt8]> {
        let options = self.options
        return { frame, _, _ in try PNGCodec.encode(frame, options: options) }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: [UInt8]) throws {
        try folder.write(frame: index, bytes: encoded)
    }

    public func finish() throws {
        try folder.finish(times: times)
    }
}
