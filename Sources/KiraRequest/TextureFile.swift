import KiraFormats
import KiraImage

/// What a card's file holds, which decides how it is read.
public enum TextureRole: Sendable, Hashable {
    /// Colours (front and back art): converted to sRGB when the file says it is in another space.
    case color
    /// Data that only looks like an image (holo masks, foil maps): its values are used as
    /// stored, whatever colour chunks the file has.
    case data
}

/// Card files read as their role needs.
public enum TextureFile {
    /// The image of the PNG `bytes` (named `name` in errors) read as `role`: art in sRGB
    /// (``ColorConversion/toSRGB(_:)``), data as stored.
    public static func decode(_ bytes: [UInt8], name: String, role: TextureRole) throws(ImageFileError) -> AnyRGBAImage {
        let file = try PNGCodec.decodeFile(bytes, name: name)
        guard role == .color else { return file.image }
        return ColorConversion.toSRGB(file).image
    }

    /// The image of the PNG file at `path` read as `role`.
    public static func read(_ path: String, role: TextureRole) throws(ImageFileError) -> AnyRGBAImage {
        try decode(try FileIO.read(path), name: path, role: role)
    }
}
