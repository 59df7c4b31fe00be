/// The image a foil's height field comes from (the foil map, else the mask), as raw pixels.
package struct HeightSource {
    package let pixels: UnsafeRawPointer
    package let width: Int
    package let height: Int
    package let bits: Int
    /// The source column of every art column; nil when the source has the art's width.
    package let columns: UnsafePointer<Int32>?

    package init(pixels: UnsafeRawPointer, width: Int, height: Int, bits: Int, columns: UnsafePointer<Int32>?) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bits = bits
        self.columns = columns
    }
}
