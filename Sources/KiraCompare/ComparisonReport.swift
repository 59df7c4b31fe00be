/// What `kira compare` reports about two images, as text and as one JSON object (encoded by
/// the caller's JSONEncoder; the keys are snake_case, a value that does not exist is null).
public struct ComparisonReport: Sendable, Encodable {
    public var a: String
    public var b: String
    public var width: Int
    public var height: Int
    /// `standard`, `flip` or `all`.
    public var metric: String
    /// The background both images were flattened onto before the standard metrics, if any
    /// (`#RRGGBB`).
    public var background: String?
    public var standard: ImageComparison?
    public var flip: FLIPComparison?
    /// Nil when no tolerance was given; else whether every one held.
    public var failures: [String]?

    public init(a: String, b: String, width: Int, height: Int, metric: String, background: String?,
                standard: ImageComparison?, flip: FLIPComparison?, failures: [String]?) {
        (self.a, self.b, self.width, self.height, self.metric) = (a, b, width, height, metric)
        (self.background, self.standard, self.flip, self.failures) = (background, standard, flip, failures)
    }

    private enum Keys: String, CodingKey {
        case a, b, width, height, metric, background, channels, psnr, ssim, maxError = "max_error", meanError = "mean_error"
        case shareOverThreshold = "share_over_threshold", threshold, flip, withinTolerance = "within_tolerance"
    }

    private enum FLIPKeys: String, CodingKey {
        case mean, weightedMedian = "weighted_median", weightedFirstQuartile = "weighted_first_quartile"
        case weightedThirdQuartile = "weighted_third_quartile", min, max, ppd, background
    }

    public func encode(to encoder: any Encoder) throws {
        var out = encoder.container(keyedBy: Keys.self)
        try out.encode(a, forKey: .a)
        try out.encode(b, forKey: .b)
        try out.encode(width, forKey: .width)
        try out.encode(height, forKey: .height)
        try out.encode(metric, forKey: .metric)
        try out.encode(background, forKey: .background)
        if let c = standard {
            try out.encode(c.comparesAlpha ? "RGBA" : "RGB", forKey: .channels)
            // JSON has no infinity: identical images have "psnr": null.
            try out.encode(c.psnr.isFinite ? c.psnr : nil, forKey: .psnr)
            try out.encode(c.ssim, forKey: .ssim)
            try out.encode(Self.steps(c.maxError), forKey: .maxError)
            try out.encode(Self.steps(c.meanAbsoluteError), forKey: .meanError)
            try out.encode(c.shareOverThreshold, forKey: .shareOverThreshold)
            try out.encode(Self.steps(c.threshold), forKey: .threshold)
        }
        if let f = flip {
            var nested = out.nestedContainer(keyedBy: FLIPKeys.self, forKey: .flip)
            let s = f.statistics
            try nested.encode(s.mean, forKey: .mean)
            try nested.encode(s.weightedMedian, forKey: .weightedMedian)
            try nested.encode(s.weightedFirstQuartile, forKey: .weightedFirstQuartile)
            try nested.encode(s.weightedThirdQuartile, forKey: .weightedThirdQuartile)
            try nested.encode(s.min, forKey: .min)
            try nested.encode(s.max, forKey: .max)
            try nested.encode(f.viewing.pixelsPerDegree, forKey: .ppd)
            try nested.encode(f.background.rawValue, forKey: .background)
        }
        try out.encode(failures.map(\.isEmpty), forKey: .withinTolerance)
    }

    /// A fraction of full scale in 8-bit steps, rounded to 1e-9 steps so that 8-bit errors print
    /// as whole numbers (`1.0`, not the `1.0000000000000249` of `(1 / 255) · 255`).
    public static func steps(_ x: Double) -> Double { (x * 255 * 1e9).rounded() / 1e9 }
}
