import KiraFormats
import KiraImage
import KiraPNG
import KiraPipeline
import KiraRender

/// Collects the frames a sheet shows (``/KiraFormats/ContactSheet/frameIndices(count:limit:)``), scaled down to the sheet's cells on worker threads,
/// and writes them as a contact sheet (``/KiraFormats/ContactSheet``) after the last.
public final class ContactSheetSink<Channel: LaneChannel>: FrameSink {
    private let path: String
    private let columns: Int
    private let times: [Double]
    private var cells: [(time: Double, image: RGBAImage<UInt8>)] = []
    private static var cellWidth: Int { 200 }

    /// A sheet of the frames shown at `times` (one per frame), in `columns` columns.
    public init(path: String, columns: Int, times: [Double]) {
        self.path = path
        self.columns = columns
        self.times = times
    }

    public func makeEncoder() -> FrameEncoder<Channel, RGBAImage<UInt8>?> {
        let shown = Set(ContactSheet.frameIndices(count: times.count))
        return { frame, _, index in
            guard shown.contains(index) else { return nil }
            // The cell's size as ContactSheet computes it, so that it scales each frame once.
            let size = ContactSheet.cellSize(frameWidth: frame.width, frameHeight: frame.height, cellWidth: Self.cellWidth)
            return try eightBit(frame).lanczosScaled(width: size.imageWidth, height: size.imageHeight)
        }
    }

    public func consume(_ frame: RGBAImage<Channel>, index: Int, encoded cell: RGBAImage<UInt8>?) throws {
        if let cell { cells.append((times[index], cell)) }
    }

    public func finish() throws {
        try PNGCodec.write(try ContactSheet.make(frames: cells, columns: columns, cellWidth: Self.cellWidth), to: path)
    }
}
