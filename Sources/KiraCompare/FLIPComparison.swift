import KiraImage

/// The LDR-ꟻLIP errors of a test image against a reference (``FLIP``) and their statistics.
public struct FLIPComparison: Sendable {
    public let width: Int
    public let height: Int
    public let viewing: FLIPViewing
    public let background: FLIPBackground
    /// One error a pixel, row-major, 0...1.
    public let errors: [Float]
    public let statistics: FLIPStatistics

    /// - Precondition: the images have the same size.
    public init(reference: AnyRGBAImage, test: AnyRGBAImage, viewing: FLIPViewing = .standard, background: FLIPBackground = .standard) {
        width = reference.width
        height = reference.height
        self.viewing = viewing
        self.background = background
        errors = FLIP.errors(reference: reference, test: test, viewing: viewing, background: background)
        statistics = FLIPStatistics(errors)
    }

    /// The memory ꟻLIP needs beyond the images, at most: the errors, as much again for the
    /// statistics' percentile buckets, and every band's working rows at once.
    public static func estimatedWorkingBytes(width: Int, height: Int, viewing: FLIPViewing = .standard) -> Int {
        let radius = FLIPBandTaps(FLIPKernels(pixelsPerDegree: viewing.pixelsPerDegree)).radius
        return 8 * width * height + FLIPBand.bands(height: height, radius: radius) * FLIPBand.workingBytes(width: width, radius: radius)
    }
}
