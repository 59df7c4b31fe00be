/// Raw views of one render's images, shared read-only by the workers (each writes its own rows).
package struct FrameBuffers: @unchecked Sendable {
    package let art: UnsafeRawPointer
    package let mask: UnsafeRawPointer
    /// Frame `k` starts at `output + k * width * height * pixelBytes`.
    package let output: UnsafeMutableRawPointer
    package let width: Int
    package let height: Int
    package let maskWidth: Int
    package let maskHeight: Int
    /// Nil when the mask has the art's width.
    package let maskColumns: UnsafePointer<Int32>?
    /// How many normals are shaded.
    package let frames: Int
    /// Whether the shader reads the art premultiplied (and so writes premultiplied colour).
    package let premultiplied: Bool
    package let intensity: Float
    package let scratch: WorkerScratch

    package init(art: UnsafeRawPointer, mask: UnsafeRawPointer, output: UnsafeMutableRawPointer, width: Int, height: Int, maskWidth: Int, maskHeight: Int, maskColumns: UnsafePointer<Int32>?, frames: Int, premultiplied: Bool, intensity: Float, scratch: WorkerScratch) {
        self.art = art
        self.mask = mask
        self.output = output
        self.width = width
        self.height = height
        self.maskWidth = maskWidth
        self.maskHeight = maskHeight
        self.maskColumns = maskColumns
        self.frames = frames
        self.premultiplied = premultiplied
        self.intensity = intensity
        self.scratch = scratch
    }
}
