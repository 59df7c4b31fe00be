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

    /// The memory ꟻLIP needs beyond the images: 16 float planes at its peak (both images'
    /// opponent planes, four of scratch, both images' edge and point magnitudes, the errors).
    public static func estimatedWorkingBytes(width: Int, height: Int) -> Int { 16 * 4 * width * height }
}
