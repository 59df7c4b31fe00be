import KiraImage

/// What to compute when comparing two images, and what it costs: the library's side of
/// `kira compare`, which maps its options onto this and prints the result.
public struct ComparisonRequest: Sendable {
    /// Which metrics: the standard ones (PSNR, SSIM, errors), ꟻLIP, or both.
    public enum Metric: String, Sendable, CaseIterable {
        case standard, flip, all
    }

    public var metric: Metric
    /// A channel off by more than this fraction of full scale counts its pixel as off.
    public var threshold: Double
    /// ꟻLIP's viewing conditions.
    public var viewing: FLIPViewing
    /// What ꟻLIP composites images with alpha over.
    public var flipBackground: FLIPBackground
    /// When set, both images are flattened onto this colour before the standard metrics, so that
    /// a transparent image and its flattened copy (a JPEG of it) compare by what they show;
    /// unset, alpha is compared as a channel when either file stores it.
    public var background: SIMD3<UInt8>?
    /// Whether a heat map of the differences is made.
    public var heatMap: Bool
    /// Whether the ꟻLIP error map is made.
    public var flipMap: Bool

    public init(metric: Metric = .standard, threshold: Double = 1.0 / 255, viewing: FLIPViewing = .standard,
                flipBackground: FLIPBackground = .standard, background: SIMD3<UInt8>? = nil, heatMap: Bool = false, flipMap: Bool = false) {
        (self.metric, self.threshold, self.viewing, self.flipBackground) = (metric, threshold, viewing, flipBackground)
        (self.background, self.heatMap, self.flipMap) = (background, heatMap, flipMap)
    }

    public var computesStandard: Bool { metric != .flip }
    public var computesFLIP: Bool { metric != .standard }

    /// An upper bound of the bytes a comparison of two `width` × `height` images takes at its
    /// peak, with `decodedBytes` the two decoded images together: the metrics' working memory,
    /// the flattened copies, the maps.
    public func estimatedPeakBytes(width: Int, height: Int, decodedBytes: Int, mixedDepths: Bool) -> Int {
        let flattened = background != nil ? decodedBytes : 0
        return (computesStandard
                ? ImageComparison.estimatedPeakBytes(width: width, height: height, decodedBytes: decodedBytes, mixedDepths: mixedDepths, heatMap: heatMap)
                : decodedBytes)
            + flattened
            + (computesFLIP ? FLIPComparison.estimatedWorkingBytes(width: width, height: height, viewing: viewing) : 0)
            + (flipMap ? FLIPMap.estimatedBytes(width: width, height: height) : 0)
    }

    /// Compares `a` (the reference) with `b`: the metrics ``metric`` names, and the maps asked
    /// for. Images of different sizes are the caller's to refuse first (``ImageComparison/sizesMatch(_:_:)``).
    ///
    /// - Throws: ``/KiraImage/ImageError`` when a map with its legend would be over the image limits.
    public func compare(_ a: (image: AnyRGBAImage, hasAlpha: Bool), _ b: (image: AnyRGBAImage, hasAlpha: Bool)) throws(ImageError) -> ComparisonResult {
        var result = ComparisonResult()
        if computesStandard {
            // Flattened onto the background when one is given: what each image shows over it.
            let (x, y, comparesAlpha) = background.map { colour in
                (a.hasAlpha ? a.image.flattened(onto: colour) : a.image, b.hasAlpha ? b.image.flattened(onto: colour) : b.image, false)
            } ?? (a.image, b.image, a.hasAlpha || b.hasAlpha)
            result.standard = ImageComparison(x, y, threshold: threshold, comparesAlpha: comparesAlpha)
            if heatMap { result.heatMap = try DiffMapLegend.appended(to: DiffMap.heatMap(x, y)) }
        }
        if computesFLIP {
            let flip = FLIPComparison(reference: a.image, test: b.image, viewing: viewing, background: flipBackground)
            result.flip = flip
            if flipMap { result.flipMap = try FLIPMap.image(flip.errors, width: flip.width, height: flip.height) }
        }
        return result
    }
}
