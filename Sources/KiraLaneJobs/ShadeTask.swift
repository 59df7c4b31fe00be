import KiraShader

/// One shade as the kernels of every CPU level take it: the images as raw views, the foil, its
/// tables and what each frame needs. It reaches them by pointer, the one form that every level
/// passes alike.
package struct ShadeTask: @unchecked Sendable {
    package let frame: FrameBuffers
    /// The image the height field comes from, when the foil reads one.
    package let height: HeightSource?
    package let foil: Foil
    /// The foil's tables: a ``FoilTablesBox`` of the foil's `Tables`.
    package let tables: AnyObject
    /// Per frame, the foil's `Frame` for its normal.
    package let foilFrames: UnsafeRawPointer
    /// Per frame, the glare; nil when there is none.
    package let glares: UnsafePointer<Glare.Frame>?
    package let tileRows: Int
    /// Bits per channel of the art, the mask and the output.
    package let depths: (art: Int, mask: Int, output: Int)

    package init(frame: FrameBuffers, height: HeightSource?, foil: Foil, tables: AnyObject, foilFrames: UnsafeRawPointer,
                 glares: UnsafePointer<Glare.Frame>?, tileRows: Int, depths: (art: Int, mask: Int, output: Int)) {
        self.frame = frame
        self.height = height
        self.foil = foil
        self.tables = tables
        self.foilFrames = foilFrames
        self.glares = glares
        self.tileRows = tileRows
        self.depths = depths
    }
}
