/// What images with alpha are composited over before ꟻLIP, which compares opaque colours.
///
/// Black is the default: a pixel then counts as its premultiplied colour, so a fully transparent
/// pixel is black whatever colour it stores, and a render's transparent surroundings show as the
/// dark backgrounds cards are mostly shown on. Compositing is in the stored (sRGB-encoded)
/// values, as image viewers and browsers blend.
public enum FLIPBackground: String, Sendable, CaseIterable {
    case black, white

    /// What a comparison uses unless told otherwise.
    public static let standard = FLIPBackground.black

    /// The background's value in every channel, 0...1.
    var level: Float { self == .black ? 0 : 1 }
}
