/// The rectangle a card's drawn faces cover in the card's view at scale 1: card pixels from the
/// card's centre, x right and y down. A tilted card's near edge reaches further than its far
/// edge, and a flipped card narrows, so the rectangle is rarely the card's own.
public struct DrawnExtent: Sendable, Equatable {
    public var low: SIMD2<Double>
    public var high: SIMD2<Double>

    public init(low: SIMD2<Double>, high: SIMD2<Double>) {
        self.low = low
        self.high = high
    }

    /// The smallest rectangle holding both.
    public func union(_ other: DrawnExtent) -> DrawnExtent {
        DrawnExtent(low: pointwiseMin(low, other.low), high: pointwiseMax(high, other.high))
    }

    /// Its width and height.
    public var size: SIMD2<Double> { high - low }
}
