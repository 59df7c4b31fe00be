import CKiraFormats
import Dispatch
import KiraImage
import KiraPNG

/// Colour images into sRGB, the space Kira shades in and writes: art tagged with another ICC
/// profile, or with a gamma or primaries other than sRGB's, is converted by LittleCMS (relative
/// colorimetric, at the image's own bit depth); art that is sRGB — an sRGB chunk, no colour
/// chunk at all, a gamma of 1/2.2 with sRGB's primaries, or an ICC profile that is sRGB by another
/// name — is left exactly as stored.
public enum ColorConversion {
    /// What happened to an image's colours.
    public enum Outcome: Sendable, Equatable {
        /// The image is sRGB: its samples are as stored.
        case sRGB
        /// The image was converted from the named source (its ICC profile's description, or its
        /// gamma and primaries).
        case converted(from: String)
        /// The file's ICC profile cannot be used (unreadable, or for another kind of image: an
        /// RGB profile on a grey PNG, a CMYK one), for the reason given: its samples are kept as
        /// stored, as a file without a profile would be (a broken ancillary chunk must not make
        /// good art unusable).
        case unusableProfile(String)
    }

    /// `file`'s image in sRGB, and what was done.
    public static func toSRGB(_ file: PNGFile) -> (image: AnyRGBAImage, outcome: Outcome) {
        let chunks = file.colorChunks
        guard !chunks.isSRGB else { return (file.image, .sRGB) }
        var chromaticities = chunks.chromaticities.map { $0.map { Double($0) / 100000 } } ?? []
        let gamma = chunks.iccProfile == nil ? chunks.gamma.map { Double($0) / 100000 } ?? 0 : 0
        let profile = chunks.iccProfile ?? []
        var isSRGB: Int32 = 0
        var description = [CChar](repeating: 0, count: Int(KIRA_FORMATS_MESSAGE_SIZE))
        var message = [CChar](repeating: 0, count: Int(KIRA_FORMATS_MESSAGE_SIZE))
        let transform = profile.withUnsafeBufferPointer { icc in
            chromaticities.withUnsafeMutableBufferPointer { c in
                let source = kira_color_source(
                    icc: icc.baseAddress, icc_size: icc.count, gamma: gamma,
                    chromaticities: chunks.iccProfile == nil && chunks.chromaticities != nil ? UnsafePointer(c.baseAddress) : nil)
                return kira_color_transform_create(source, Int32(file.image.bitDepth), file.isGray ? 1 : 0, &isSRGB,
                                                   &description, &message)
            }
        }
        guard let transform else { return (file.image, .unusableProfile(text(message))) }
        defer { kira_color_transform_destroy(transform) }
        if isSRGB != 0 { return (file.image, .sRGB) }
        let source = chunks.iccProfile != nil ? "its ICC profile \"\(text(description))\"" : chunks.gammaDescription
        switch file.image {
        case .rgba8(var image):
            apply(transform, to: &image)
            return (.rgba8(image), .converted(from: source))
        case .rgba16(var image):
            apply(transform, to: &image)
            return (.rgba16(image), .converted(from: source))
        }
    }

    /// Bands of 64 rows, converted on every core.
    private static func apply<C>(_ transform: OpaquePointer, to image: inout RGBAImage<C>) {
        let pixels = image.width * image.height
        guard pixels > 0 else { return }
        let band = 64 * image.width
        let bands = (pixels + band - 1) / band
        image.channels.withUnsafeMutableBytes { bytes in
            let work = Bands(transform: transform, base: bytes.baseAddress!)
            let stride = 4 * MemoryLayout<C>.size
            DispatchQueue.concurrentPerform(iterations: bands) { k in
                let start = k * band, count = min(band, pixels - start)
                kira_color_transform_apply(work.transform, work.base + start * stride, count)
            }
        }
    }

    /// The transform and the pixels, shared by the threads of ``apply(_:to:)``: each converts its
    /// own band, and the transform (made with cmsFLAGS_NOCACHE) keeps no state between calls.
    private struct Bands: @unchecked Sendable {
        let transform: OpaquePointer
        let base: UnsafeMutableRawPointer
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
