import KiraImage

/// Generic code to run at a channel type chosen at run time: `callAsFunction` is called with
/// `UInt8` or `UInt16` (see ``ChannelDepth/with(bits:_:)``), and the compiler specialises it for
/// both.
package protocol ChannelTypeConsumer {
    associatedtype Result
    func callAsFunction<C: LaneChannel>(_ channel: C.Type) -> Result
}

/// The one place where a bit depth becomes a channel type: code that needs several channel
/// types nests consumers instead of switching over every combination.
package enum ChannelDepth {
    /// Calls `body` with the channel type of `bits` bits (16, otherwise 8).
    @inline(__always)
    package static func with<Body: ChannelTypeConsumer>(bits: Int, _ body: Body) -> Body.Result {
        bits == 16 ? body(UInt16.self) : body(UInt8.self)
    }
}

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
