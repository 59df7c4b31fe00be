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
