import Dispatch
import KiraFiles
import KiraImage

extension Canvas {
    /// How many bands of rows a sample image is drawn in: enough to keep the cores busy though
    /// bands cost differently (the art window more than the text box), few enough that what
    /// the design works out per band stays small. The pixels do not depend on it.
    static let bands = 16

    /// A `width`×`height` image drawn by `draw` on `bands` bands of rows at once, stored as
    /// colour or, when `grey`, as an opaque grey mask.
    static func image(width: Int, height: Int, background: Color = .zero, grey: Bool = false,
                      bands: Int = Canvas.bands, _ draw: @Sendable (inout Canvas) -> Void)
        -> RGBAImage<UInt8>
    {
        let bands = max(1, min(bands, height))
        let stored = Locked([[UInt8]](repeating: [], count: bands))
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            var canvas = Canvas(width: width, height: height, rows: (band * height / bands)..<((band + 1) * height / bands),
                                background: background)
            draw(&canvas)
            let bytes = grey ? canvas.grey8() : canvas.rgba8()
            stored.withLock { $0[band] = bytes }
        }
        return RGBAImage(width: width, height: height, channels: stored.withLock { Array($0.joined()) })
    }
}
