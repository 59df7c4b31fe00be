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

    /// A monitor whose unspecified parts are the paper's (``standardMonitor``).
    public init(monitorDistance distance: Double?, monitorWidth width: Double?, resolution: Double?) {
        let standard = Self.standardMonitor
        self.init(monitorDistance: distance ?? standard.distance, monitorWidth: width ?? standard.width,
                  resolution: resolution ?? standard.resolution)
    }

    /// The paper's monitor: 0.7 m wide, 3840 pixels across (4K), seen from 0.7 m.
    public static let standardMonitor: (distance: Double, width: Double, resolution: Double) = (0.7, 0.7, 3840)

    /// The paper's default viewing: ``standardMonitor``, 67.02 ppd.
    public static let standard = FLIPViewing(monitorDistance: standardMonitor.distance, monitorWidth: standardMonitor.width,
                                             resolution: standardMonitor.resolution)
}
