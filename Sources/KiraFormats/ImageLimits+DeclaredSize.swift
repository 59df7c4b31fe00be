import KiraFiles
import KiraImage

extension ImageLimits {
    /// Refuses the size a file's header declares when it has no pixels or is over these limits:
    /// checked before anything is decoded.
    func checkDeclared(width: Int, height: Int, name: String) throws(ImageFileError) {
        guard width > 0, height > 0 else { throw ImageFileError(path: name, reason: "declares a \(width)×\(height) image, with no pixels") }
        guard max(width, height) <= maxSide, width * height <= maxPixels else {
            throw ImageFileError(path: name, reason: "image is \(width)×\(height), over the limit of \(maxSide) pixels a side")
        }
    }
}
