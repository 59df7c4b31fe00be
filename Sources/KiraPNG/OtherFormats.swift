import KiraFiles
import KiraImage

/// Recognises the image formats users most often hand Kira instead of a PNG, so that the error
/// can say what the file is and how to convert it, rather than only that its signature is wrong.
package enum OtherImageFormat: String {
    case jpeg = "JPEG", gif = "GIF", webp = "WebP", bmp = "BMP", tiff = "TIFF", avif = "AVIF", heic = "HEIC"

    /// The format whose magic bytes `bytes` start with, if it is one of these.
    package static func recognise(_ bytes: [UInt8]) -> OtherImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftypavif".utf8), at: 4) { return .avif }
        if starts(Array("ftypheic".utf8), at: 4) || starts(Array("ftypmif1".utf8), at: 4) { return .heic }
        return nil
    }

    /// The error for a file of this format named `name`: what it is, and a command that converts it.
    func error(name: String) -> ImageFileError {
        let base = name.split(separator: "/").last.map(String.init) ?? "image"
        let stem = base.split(separator: ".").dropLast().joined(separator: ".").nilIfEmpty ?? base
        // A GIF named .png must not be converted onto itself.
        let png = base.lowercased() == stem.lowercased() + ".png" ? stem + "-converted.png" : stem + ".png"
        return ImageFileError(
            path: name, reason: "a \(rawValue) file, not a PNG; Kira reads PNG only: convert it first, e.g. ffmpeg -i \(name) \(png)")
    }
}

private extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
