import KiraFiles
import KiraImage

extension ImageFileError {
    /// The error of `path` (a file, or a name for in-memory data) whose image the image types
    /// refuse: a size over the limits, as the codecs and the scaler report it.
    package init(path: String, _ error: ImageError) {
        self.init(path: path, reason: "\(error)")
    }
}

extension RGBAImage {
    /// `RGBAImage(width:height:)`, refused as an ``/KiraFiles/ImageFileError`` of `path`.
    package static func zeroed(width: Int, height: Int, path: String) throws(ImageFileError) -> RGBAImage {
        do {
            return try RGBAImage(width: width, height: height)
        } catch {
            throw ImageFileError(path: path, error)
        }
    }

    /// `RGBAImage(width:height:channels:)`, refused as an ``/KiraFiles/ImageFileError`` of `path`.
    package static func decoded(width: Int, height: Int, channels: [Channel], path: String) throws(ImageFileError) -> RGBAImage {
        do {
            return try RGBAImage(width: width, height: height, channels: channels)
        } catch {
            throw ImageFileError(path: path, error)
        }
    }
}
