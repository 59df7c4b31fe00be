#if !arch(wasm32)
import Dispatch
#endif
import KiraImage

extension Canvas {
    /// How many bands of rows a sample image is drawn in: enough to keep the cores busy though
    /// bands cost differently (the art window more than the text box), few enough that what
    /// the design works out per band stays small. The pixels do not depend on it.
    static let bands = 16

    /// A `width`×`height` image drawn by `draw` on `bands` bands of rows at once, stored as
    /// colour or, when `grey`, as an opaque grey mask. The size is the caller's to check
    /// (``SampleCard``'s public functions do).
    static func image(width: Int, height: Int, background: Color = .zero, grey: Bool = false,
                      bands: Int = Canvas.bands, _ draw: @Sendable (inout Canvas) -> Void)
        -> RGBAImage<UInt8>
    {
        let bands = max(1, min(bands, height))
        @Sendable func drawBand(_ band: Int) -> [UInt8] {
            var canvas = Canvas(width: width, height: height, rows: (band * height / bands)..<((band + 1) * height / bands),
                                background: background)
            draw(&canvas)
            return grey ? canvas.grey8() : canvas.rgba8()
        }
        #if arch(wasm32)
        // No threads on WebAssembly: the bands one after another, the same pixels.
        let stored = (0..<bands).map { drawBand($0) }
        return RGBAImage(checkedWidth: width, height: height, channels: Array(stored.joined()))
        #else
        // Each band stores into its own slot: no lock, and nothing for ThreadSanitizer to see
        // but writes to different places before the apply returns.
        nonisolated(unsafe) let stored = UnsafeMutableBufferPointer<[UInt8]>.allocate(capacity: bands)
        stored.initialize(repeating: [])
        defer { stored.deinitialize().deallocate() }
        DispatchQueue.concurrentPerform(iterations: bands) { band in stored[band] = drawBand(band) }
        return RGBAImage(checkedWidth: width, height: height, channels: Array(stored.joined()))
        #endif
    }
}
