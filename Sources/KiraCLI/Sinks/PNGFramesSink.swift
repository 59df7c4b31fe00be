import Kira

/// Writes every frame whole as its own PNG file, `frame-0000.png`, `frame-0001.png`, … in a
/// directory; frames are encoded on worker threads.
final class PNGFramesSink<Channel: LaneChannel>: FrameSink {
    let directory: String
    private let options: PNGCodec.EncodingOptions

    init(directory: String, options: PNGCodec.EncodingOptions = .fast) {
        self.directory = directory
        self.options = options
    }

    /// The file frame `index` goes to.
    func path(ofFrame index: Int) -> String {
        let number = String(index)
        return "\(directory)/frame-\(String(repeating: "0", count: max(0, 4 - number.count)))\(number).png"
    }

    func makeEncoder() -> FrameEncoder<Channel, [UInt8]> {
        let options = self.options
        return { frame, _, _ in try PNGCodec.encode(frame, options: options) }
    }

    func consume(_ frame: RGBAImage<Channel>, index: Int, encoded: [UInt8]) throws {
        try FileIO.writeAtomically(encoded, to: path(ofFrame: index))
    }

    func finish() throws {}
}
