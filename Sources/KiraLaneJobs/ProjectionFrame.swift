/// One frame's projection as both projection paths take it (the lanes' job, and the scalar
/// reference): the faces to draw and their shaded pixels, the canvas,
/// and the canvas's tiles of rows, which the workers share.
package struct ProjectionFrame: @unchecked Sendable {
    package let projections: [FaceProjection]
    /// The shaded face of each projection, and the canvas, with channels of `depth` bits.
    package let faces: UnsafePointer<UnsafeRawPointer>
    package let output: UnsafeMutableRawPointer
    package let depth: Int
    package let width: Int
    package let height: Int
    package let tileRows: Int
    /// The premultiplied background.
    package let background: SIMD4<Float>

    package init(projections: [FaceProjection], faces: UnsafePointer<UnsafeRawPointer>, output: UnsafeMutableRawPointer,
                 depth: Int, width: Int, height: Int, tileRows: Int, background: SIMD4<Float>) {
        self.projections = projections
        self.faces = faces
        self.output = output
        self.depth = depth
        self.width = width
        self.height = height
        self.tileRows = tileRows
        self.background = background
    }

    /// Whether every face is small enough for the lanes' 32-bit texel indices.
    package var fitsLanes: Bool {
        projections.allSatisfy { $0.faceSize.x * $0.faceSize.y < Int(Int32.max) }
    }

    /// The canvas rows of tile `tile`.
    package func rows(ofTile tile: Int) -> Range<Int> {
        (tile * tileRows)..<min((tile + 1) * tileRows, height)
    }

    /// The background as a stored pixel (un-premultiplied, quantised): what both paths write
    /// where no face reaches, the same bytes as their stores give for the background alone.
    package func storedBackground<Out: LaneChannel>(_: Out.Type) -> SIMD4<Out> {
        let scale: Float = background.w > 0 ? 1 / background.w : 0
        return SIMD4(Out.quantize(background.x * scale), Out.quantize(background.y * scale),
                     Out.quantize(background.z * scale), Out.quantize(background.w))
    }
}
