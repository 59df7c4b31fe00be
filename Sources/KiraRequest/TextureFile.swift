import KiraFiles
import KiraFormats
import KiraImage
import KiraPNG

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
    /// (``/KiraFormats/ColorConversion/toSRGB(_:)``), data as stored.
    public static func decode(_ bytes: [UInt8], name: String, role: TextureRole) throws(ImageFileError) -> AnyRGBAImage {
        try decodeNoted(bytes, name: name, role: role).image
    }

    /// The image of the PNG file at `path` read as `role`.
    public static func read(_ path: String, role: TextureRole) throws(ImageFileError) -> AnyRGBAImage {
        try readNoted(path, role: role).image
    }

    /// ``read(_:role:)``, and what was done to the colours when it was not nothing: "art.png:
    /// converted to sRGB from its ICC profile "Adobe RGB (1998)"".
    ///
    /// With a `budget`, a stream (standard input, a pipe), whose size no header gave before it was
    /// read, is read up to the budget and no further, and its decoded size, from the header it
    /// then has, is checked against the budget before it is decoded.
    public static func readNoted(_ path: String, role: TextureRole, budget: MemoryBudget? = nil) throws(ImageFileError)
        -> (image: AnyRGBAImage, note: String?)
    {
        let bytes = try FileIO.read(path, limit: budget.map { max(0, $0.bytes) } ?? FileIO.maxReadSize)
        let name = FileIO.displayName(path)
        if let budget, let header = PNGHeader(bytes: bytes) {
            let needed = MemoryBudget.sum(bytes.count, header.decodedBytes)
            guard budget.fits(needed) else {
                throw ImageFileError(path: name, reason: "a \(header.width)×\(header.height) image needs about \(MemoryBudget.describe(needed)) "
                                     + "to decode, over the memory budget of \(budget.described); give a smaller image or raise --max-memory")
            }
        }
        return try decodeNoted(bytes, name: name, role: role)
    }

    /// ``decode(_:name:role:)``, and what was done to the colours when it was not nothing.
    public static func decodeNoted(_ bytes: [UInt8], name: String, role: TextureRole) throws(ImageFileError)
        -> (image: AnyRGBAImage, note: String?)
    {
        let file = try PNGCodec.decodeFile(bytes, name: name)
        guard role == .color else { return (file.image, nil) }
        let converted = ColorConversion.toSRGB(file)
        switch converted.outcome {
        case .sRGB: return (converted.image, nil)
        case .converted(let source): return (converted.image, "\(QuotedValue.shown(name)): converted to sRGB from \(source)")
        case .unusableProfile(let reason): return (converted.image, "\(QuotedValue.shown(name)): its colour profile is not used (\(reason)); read as sRGB")
        }
    }
}
