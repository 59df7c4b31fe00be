/// What a benchmark will measure and about how long it will take (``Bench/plan(maxThreads:)``).
public struct BenchPlan: Sendable {
    /// One path at one thread count with one foil.
    public struct Step: Sendable, Equatable {
        public var name: String
        public var foil: String
        public var threads: Int
        /// Frames a run, and runs.
        public var frames: Int
        public var runs: Int
        /// The estimated time of all its runs.
        public var seconds: Double
    }

    /// The scalar reference's time for a frame over the SIMD path's at one thread: 177 (0.726 s
    /// against 0.0041 s, 1260×1760, Zen 4, docs/performance.md).
    static let scalarToSIMD = 177.0

    public let width: Int
    public let height: Int
    public let frames: Int
    public let repeats: Int
    public let steps: [Step]

    public var estimatedSeconds: Double { steps.map(\.seconds).reduce(0, +) }

    /// One line: the size, frames and runs, each path with its thread counts, the foils and the
    /// estimated time.
    public var summary: String {
        var names: [String] = [], threads: [String: [Int]] = [:], foils: [String] = []
        for step in steps {
            if threads[step.name] == nil { names.append(step.name) }
            if !threads[step.name, default: []].contains(step.threads) { threads[step.name, default: []].append(step.threads) }
            if !foils.contains(step.foil) { foils.append(step.foil) }
        }
        let paths = names.map { name -> String in
            let counts = threads[name]!
            return "\(name) (\(counts.map(String.init).joined(separator: ", ")) thread\(counts == [1] ? "" : "s"))"
        }
        return "kira bench: \(width)×\(height), \(frames) frame\(frames == 1 ? "" : "s") a run, best of \(repeats) run\(repeats == 1 ? "" : "s"): "
            + paths.joined(separator: ", ") + "; foil\(foils.count == 1 ? "" : "s") \(foils.joined(separator: ", "))"
            + "; about \(Self.duration(estimatedSeconds)) (from one frame of each path)"
    }

    /// `s` as "0.4 s", "12 s", "4 min 10 s" or "2 h 5 min".
    static func duration(_ s: Double) -> String {
        if s < 10 { return "\((s * 10).rounded() / 10) s" }
        let whole = Int(s.rounded())
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
