import KiraImage
import KiraRender

/// The sample card, drawn in memory at its default size, so that a request without files needs
/// none and works from any directory (`kira textures` writes the same images to disk). Each face's
/// art is also its foil map, so that the etched foil embosses the picture.
public enum BuiltInCard {
    public static let front = face(art: SampleCard.drawnFront(), mask: SampleCard.drawnMask())
    public static let back = face(art: SampleCard.drawnBack(), mask: SampleCard.drawnBackMask())

    /// The default size's images, drawn alike: nothing to refuse.
    private static func face(art: RGBAImage<UInt8>, mask: RGBAImage<UInt8>) -> CardFace {
        CardFace(checkedArt: .rgba8(art), mask: .rgba8(mask), foilMap: .rgba8(art))
    }
}
