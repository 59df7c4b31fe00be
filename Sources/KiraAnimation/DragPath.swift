#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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

    /// - Throws: ``DragPathError`` when empty, not increasing in time, or not finite.
    public init(samples: [Sample]) throws(DragPathError) {
        guard !samples.isEmpty else { throw DragPathError("a drag path needs at least one sample") }
        for (i, s) in samples.enumerated() {
            guard s.time.isFinite, s.dx.isFinite, s.dy.isFinite else { throw DragPathError("sample \(i + 1) is not finite") }
            if i > 0, s.time <= samples[i - 1].time { throw DragPathError("sample \(i + 1): times must increase") }
        }
        self.samples = samples
    }

    /// When the finger lifts.
    public var duration: Double { samples.last!.time }

    /// The translation at `time`, linearly interpolated; held at the ends.
    public func translation(at time: Double) -> (dx: Double, dy: Double) {
        guard let after = samples.firstIndex(where: { $0.time >= time }) else { return (samples.last!.dx, samples.last!.dy) }
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

    // MARK: Files

    /// Reads `time,dx,dy` lines (an optional header line, `#` comments), or a JSON array of
    /// objects with `time` (or `t`), `dx` and `dy`.
    public init(text: String, name: String) throws(DragPathError) {
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.first == "[" {
            try self.init(samples: try Self.parseJSON(String(trimmed), name: name))
        } else {
            try self.init(samples: try Self.parseCSV(text, name: name))
        }
    }

    static func parseCSV(_ text: String, name: String) throws(DragPathError) -> [Sample] {
        var samples: [Sample] = []
        // `isNewline`, not "\n": in Swift "\r\n" is one Character, which a split on "\n" misses.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let fields = line.split(separator: ",").map { $0.trimmingWhitespace }
            if fields.isEmpty || fields.allSatisfy(\.isEmpty) { continue }
            if samples.isEmpty, number == 0, fields.first.map({ Double($0) == nil }) == true { continue }  // header
            guard fields.count == 3, let t = Double(fields[0]), let dx = Double(fields[1]), let dy = Double(fields[2]) else {
                throw DragPathError("\(name):\(number + 1): expected `time,dx,dy`")
            }
            samples.append(Sample(time: t, dx: dx, dy: dy))
        }
        return samples
    }

    /// A small JSON reader for an array of flat objects with number values: all this format needs.
    static func parseJSON(_ text: String, name: String) throws(DragPathError) -> [Sample] {
        var samples: [Sample] = []
        let body = text.trimmingWhitespace
        guard body.hasPrefix("["), body.hasSuffix("]") else { throw DragPathError("\(name): expected a JSON array") }
        let inner = body.dropFirst().dropLast()
        var objects: [Substring] = []
        var depth = 0, start: Substring.Index?
        for index in inner.indices {
            switch inner[index] {
            case "{":
                if depth == 0 { start = inner.index(after: index) }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let s = start { objects.append(inner[s..<index]) }
                if depth < 0 { throw DragPathError("\(name): unbalanced braces") }
            default: break
            }
        }
        guard depth == 0 else { throw DragPathError("\(name): unbalanced braces") }
        for (i, object) in objects.enumerated() {
            var values: [String: Double] = [:]
            for pair in object.split(separator: ",") {
                let parts = pair.split(separator: ":", maxSplits: 1).map { $0.trimmingWhitespace }
                guard parts.count == 2, let value = Double(parts[1]) else { throw DragPathError("\(name): object \(i + 1): expected \"key\": number") }
                values[parts[0].trimmingCharacters("\"")] = value
            }
            guard let t = values["time"] ?? values["t"], let dx = values["dx"], let dy = values["dy"] else {
                throw DragPathError("\(name): object \(i + 1): needs time, dx and dy")
            }
            samples.append(Sample(time: t, dx: dx, dy: dy))
        }
        return samples
    }
}

/// A drag path that cannot be used; the description is one line.
public struct DragPathError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension StringProtocol {
    fileprivate var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    fileprivate func trimmingCharacters(_ c: Character) -> String {
        String(drop { $0 == c }.reversed().drop { $0 == c }.reversed())
    }
}
