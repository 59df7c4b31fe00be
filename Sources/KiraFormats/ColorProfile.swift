import CKiraFormats

/// The ICC profile Kira's WebP and JPEG files carry.
public enum ColorProfile {
    /// sRGB as LittleCMS builds it (a v4 profile with parametric curves, 588 bytes with lcms2
    /// 2.14), its creation date cleared so that equal images make equal files. Empty if LittleCMS
    /// cannot build it (the files are then untagged, which viewers also read as sRGB).
    public static let sRGB: [UInt8] = {
        var bytes = kira_bytes()
        guard failureMessage({ kira_srgb_profile(&bytes, $0) }) == nil else { return [] }
        return bytes.take()
    }()

    /// The versions of the libraries behind WebP, JPEG, colour profiles and scaling.
    public static var libraryVersions: String { String(cString: kira_formats_versions()) }
}
