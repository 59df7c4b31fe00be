import KiraRender
import KiraSamples

/// The sample card, drawn in memory at its default size, so that a request without files needs
/// none and works from any directory (`kira textures` writes the same images to disk).
public enum BuiltInCard {
    public static let front = CardFace(art: .rgba8(SampleCard.front()), mask: .rgba8(SampleCard.mask()))
    public static let back = CardFace(art: .rgba8(SampleCard.back()), mask: .rgba8(SampleCard.backMask()))
}
