#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WASILibc)
import WASILibc  // WebAssembly: wasi-libc's libm (scripts/build-web)
#endif

/// A finger's drag over the card: the translation (points) from where it started, over time.
public struct DragPath: Sendable, Equatable {
    /// One sample: `time` in seconds, translation `dx` (right) and `dy` (down) in points.
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var dx: Double
        public var dy: Double

        public init(time: Double, dx: Double, dy: Double) {
            self.time = time
            self.dx = dx
            self.dy = dy
        }
    }

    /// Samples in increasing time; the finger lifts at the last one.
    public let samples: [Sample]

    /// The largest magnitude of a time (seconds) or translation (points): far beyond any drag,
    /// small enough that differences and interpolations of samples stay finite.
    public static let maxMagnitude = 1e9

    /// The most samples a drag holds: a pointer sampled at 120 Hz for the longest animation
    /// (600 s) gives 72 000, so this is far beyond any drag, and 24 MB in memory at most.
    public static let maxSamples = 1_000_000

    /// The bytes a drag of `count` samples holds in memory.
    public static func bytes(samples count: Int) -> Int { count * MemoryLayout<Sample>.stride }

    /// - Throws: ``DragPathError`` when empty, over ``maxSamples``, not increasing in time, not
    ///   finite, or beyond ``maxMagnitude``.
    public init(samples: [Sample]) throws(DragPathError) {
        guard !samples.isEmpty else { throw DragPathError("a drag path needs at least one sample") }
        guard samples.count <= Self.maxSamples else { throw Self.tooManySamples(nil) }
        for (i, s) in samples.enumerated() {
            guard s.time.isFinite, s.dx.isFinite, s.dy.isFinite else { throw DragPathError("sample \(i + 1) is not finite") }
            guard max(abs(s.time), abs(s.dx), abs(s.dy)) <= Self.maxMagnitude else {
                throw DragPathError("sample \(i + 1): a value is beyond ±\(Int(Self.maxMagnitude))")
            }
            if i > 0, s.time <= samples[i - 1].time { throw DragPathError("sample \(i + 1): times must increase") }
        }
        self.samples = samples
    }

    /// When the finger lifts.
    public var duration: Double { samples.last!.time }

    /// The translation at `time`, linearly interpolated; held at the ends. O(log n) in the
    /// number of samples: a binary search for the first sample at or after `time`.
    public func translation(at time: Double) -> (dx: Double, dy: Double) {
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time >= time { high = middle } else { low = middle + 1 }
        }
        guard low < samples.count else { return (samples.last!.dx, samples.last!.dy) }
        let after = low
        if after == 0 { return (samples[0].dx, samples[0].dy) }
        let a = samples[after - 1], b = samples[after]
        let t = (time - a.time) / (b.time - a.time)
        return (a.dx + (b.dx - a.dx) * t, a.dy + (b.dy - a.dy) * t)
    }

    /// A drag of two seconds: a sideways figure-eight of ±120 × ±60 points, 60 samples a second.
    public static let figureEight: DragPath = {
        let samples = (0...120).map { i -> Sample in
            let t = Double(i) / 60
            let phase = 2 * Double.pi * t / 2
            return Sample(time: t, dx: 120 * sin(phase), dy: 60 * sin(2 * phase))
        }
        return try! DragPath(samples: samples)
    }()

    package static func tooManySamples(_ place: String?, limit: Int = maxSamples) -> DragPathError {
        DragPathError("\(place.map { "\($0): " } ?? "")more than \(limit) samples; a drag holds at most \(limit)")
    }
}

/// A drag path that cannot be used; the description is one line.
public struct DragPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
