import KiraImage

/// The metrics and maps of a comparison (``ComparisonRequest/compare(_:_:)``).
public struct ComparisonResult: Sendable {
    /// PSNR, SSIM and the errors, unless the metric is ꟻLIP alone.
    public var standard: ImageComparison?
    /// ꟻLIP, when the metric includes it.
    public var flip: FLIPComparison?
    /// The heat map of the differences with its legend, when asked for.
    public var heatMap: RGBAImage<UInt8>?
    /// The ꟻLIP error map with its legend, when asked for.
    public var flipMap: RGBAImage<UInt8>?
}
