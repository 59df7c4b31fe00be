/// One frame's projection as both projection paths take it (``LaneProjectionJob``, and
/// ``ScalarProjectionJob``, its reference): the faces to draw and their shaded pixels, the canvas,
/// and the canvas's tiles of rows, which the workers share.
struct ProjectionFrame: @unchecked Sendable {
    let projections: [FaceProjection]
    /// The shaded face of each projection, and the canvas, with channels of `depth` bits.
    let faces: UnsafePointer<UnsafeRawPointer>
    let output: UnsafeMutableRawPointer
    let depth: Int
    let width: Int
    let height: Int
    let tileRows: Int
    /// The premultiplied background.
    let background: SIMD4<Float>

    /// The canvas rows of tile `tile`.
    func rows(ofTile tile: Int) -> Range<Int> {
        (tile * tileRows)..<min((tile + 1) * tileRows, height)
    }

    /// The background as a stored pixel (un-premultiplied, quantised): what both paths write
    /// where no face reaches, the same bytes as their stores give for the background alone.
    func storedBackground<Out: LaneChannel>(_: Out.Type) -> SIMD4<Out> {
        let scale: Float = background.w > 0 ? 1 / background.w : 0
        return SIMD4(Out.quantize(background.x * scale), Out.quantize(background.y * scale),
                     Out.quantize(background.z * scale), Out.quantize(background.w))
    }
}
