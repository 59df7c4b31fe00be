import KiraImage
import KiraLaneJobs

/// Generic code to run on an art image and a mask whose channel types are known only at run
/// time (``AnyRGBAImage/open(mask:_:)``).
package protocol ArtMaskConsumer {
    associatedtype Result
    func callAsFunction<A: LaneChannel, M: LaneChannel>(art: RGBAImage<A>, mask: RGBAImage<M>) throws(RenderError) -> Result
}

extension AnyRGBAImage {
    /// Calls `body` with this image as the art and `mask`, each at its own channel type.
    package func open<Body: ArtMaskConsumer>(mask: AnyRGBAImage, _ body: Body) throws(RenderError) -> Body.Result {
        switch self {
        case .rgba8(let art): try mask.open(art: art, body)
        case .rgba16(let art): try mask.open(art: art, body)
        }
    }

    private func open<A: LaneChannel, Body: ArtMaskConsumer>(art: RGBAImage<A>, _ body: Body) throws(RenderError) -> Body.Result {
        switch self {
        case .rgba8(let mask): try body(art: art, mask: mask)
        case .rgba16(let mask): try body(art: art, mask: mask)
        }
    }
}
