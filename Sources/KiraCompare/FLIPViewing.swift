/// How a ꟻLIP comparison is viewed: the pixels per degree of visual angle at the observer's eye.
public struct FLIPViewing: Sendable, Equatable {
    public let pixelsPerDegree: Double

    public init(pixelsPerDegree: Double) {
        precondition(pixelsPerDegree.isFinite && pixelsPerDegree > 0, "pixels per degree must be positive")
        self.pixelsPerDegree = pixelsPerDegree
    }

    /// A monitor `width` metres wide with `resolution` pixels across, seen from `distance` metres:
    /// `ppd = distance · (resolution / width) · π / 180` (the paper's small-angle form).
    public init(monitorDistance distance: Double, monitorWidth width: Double, resolution: Double) {
        self.init(pixelsPerDegree: Self.pixelsPerDegree(distance: distance, width: width, resolution: resolution))
    }

    public static func pixelsPerDegree(distance: Double, width: Double, resolution: Double) -> Double {
        distance * (resolution / width) * .pi / 180
    }

    /// The paper's default: a 0.7 m wide 4K monitor (3840 pixels) at 0.7 m, 67.02 ppd.
    public static let standard = FLIPViewing(monitorDistance: 0.7, monitorWidth: 0.7, resolution: 3840)
}
