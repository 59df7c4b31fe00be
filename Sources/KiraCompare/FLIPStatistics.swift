/// The pooled ꟻLIP errors of an image, as ꟻLIP's own tool reports them.
///
/// The weighted percentiles weight each pixel by its error, so they say where the error mass
/// lies: the weighted median is the smallest error `e` such that pixels with errors up to `e`
/// hold at least half the sum of all errors.
public struct FLIPStatistics: Sendable, Equatable {
    public let mean: Double
    public let weightedMedian: Double
    public let weightedFirstQuartile: Double
    public let weightedThirdQuartile: Double
    public let min: Double
    public let max: Double

    public init(mean: Double, weightedMedian: Double, weightedFirstQuartile: Double, weightedThirdQuartile: Double, min: Double, max: Double) {
        self.mean = mean
        self.weightedMedian = weightedMedian
        self.weightedFirstQuartile = weightedFirstQuartile
        self.weightedThirdQuartile = weightedThirdQuartile
        self.min = min
        self.max = max
    }

    /// The statistics of `errors` (non-negative); all zero for no pixels.
    public init(_ errors: [Float]) {
        guard !errors.isEmpty else {
            self.init(mean: 0, weightedMedian: 0, weightedFirstQuartile: 0, weightedThirdQuartile: 0, min: 0, max: 0)
            return
        }
        var sum = 0.0, low = Float.infinity, high = -Float.infinity
        for e in errors {
            sum += Double(e)
            low = Swift.min(low, e)
            high = Swift.max(high, e)
        }
        let q = Self.weightedPercentiles(errors, [0.25, 0.5, 0.75], total: sum)
        self.init(mean: sum / Double(errors.count), weightedMedian: q[1], weightedFirstQuartile: q[0], weightedThirdQuartile: q[2],
                  min: Double(low), max: Double(high))
    }

    /// For each share `p` (in ascending order), the smallest value `v` of `values` (non-negative) such that the values
    /// up to `v`, sorted, sum to at least `p · total`.
    ///
    /// Without sorting: non-negative floats order as their bit patterns, so a histogram of the
    /// top 16 bits finds the bucket each percentile falls in, and only that bucket's values are
    /// sorted.
    static func weightedPercentiles(_ values: [Float], _ shares: [Double], total: Double) -> [Double] {
        guard total > 0 else { return shares.map { _ in 0 } }
        var bucketSums = [Double](repeating: 0, count: 1 << 16)
        for v in values { bucketSums[Int(v.bitPattern >> 16)] += Double(v) }
        // The bucket each share falls in, and the error sum below it.
        let targets = shares.map { $0 * total }
        var found: [(bucket: Int, below: Double)] = []
        var below = 0.0, bucket = 0
        for target in targets {
            while bucket < bucketSums.count - 1, below + bucketSums[bucket] < target {
                below += bucketSums[bucket]
                bucket += 1
            }
            found.append((bucket, below))
        }
        // Only those buckets' values are collected (in one pass) and sorted.
        let wanted = found.map(\.bucket)
        var members: [Int: [Float]] = [:]
        for v in values {
            let b = Int(v.bitPattern >> 16)
            if wanted.contains(b) { members[b, default: []].append(v) }
        }
        return zip(targets, found).map { target, f in
            let sorted = (members[f.bucket] ?? []).sorted()
            var sum = f.below
            for v in sorted {
                sum += Double(v)
                if sum >= target { return Double(v) }
            }
            return Double(sorted.last ?? 0)
        }
    }
}
