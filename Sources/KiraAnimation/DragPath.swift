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

    /// The largest magnitude of a time (seconds) or translation (points): far beyond any drag,
    /// small enough that differences and interpolations of samples stay finite.
    public static let maxMagnitude = 1e9

    /// - Throws: ``DragPathError`` when empty, not increasing in time, not finite, or beyond
    ///   ``maxMagnitude``.
    public init(samples: [Sample]) throws(DragPathError) {
        guard !samples.isEmpty else { throw DragPathError("a drag path needs at least one sample") }
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

    // MARK: Files

    /// Reads `time,dx,dy` lines (an optional header line, `#` comments), or a JSON array of
    /// objects with `time` (or `t`), `dx` and `dy`. A UTF-8 byte order mark at the start is
    /// skipped. Numbers are read exactly (digits, sign, point, exponent; nothing else, not even
    /// a NUL); anything else is refused with its line number.
    public init(text: String, name: String) throws(DragPathError) {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        let leading = text.prefix { $0.isWhitespace }
        let trimmed = text.dropFirst(leading.count)
        if trimmed.first == "[" {
            let firstLine = 1 + leading.filter(\.isNewline).count
            try self.init(samples: try Self.parseJSON(String(trimmed), name: name, firstLine: firstLine))
        } else {
            try self.init(samples: try Self.parseCSV(text, name: name))
        }
    }

    /// A decimal number as `time,dx,dy` files write it, or nil. `Double(_:)` alone would take
    /// "nan", "0x1p3" and, through C's strtod, stop at a NUL ("1\0" read as 1).
    static func number<S: StringProtocol>(_ text: S) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }) else { return nil }
        return Double(String(text))
    }

    static func parseCSV(_ text: String, name: String) throws(DragPathError) -> [Sample] {
        var samples: [Sample] = []
        // `isNewline`, not "\n": in Swift "\r\n" is one Character, which a split on "\n" misses.
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let fields = line.split(separator: ",").map { $0.trimmingWhitespace }
            if fields.isEmpty || fields.allSatisfy(\.isEmpty) { continue }
            if samples.isEmpty, number == 0, fields.first.map({ Self.number($0) == nil }) == true { continue }  // header
            guard fields.count == 3, let t = Self.number(fields[0]), let dx = Self.number(fields[1]), let dy = Self.number(fields[2]) else {
                throw DragPathError("\(name):\(number + 1): expected `time,dx,dy`")
            }
            samples.append(Sample(time: t, dx: dx, dy: dy))
        }
        return samples
    }

    /// A small JSON reader for an array of flat objects with number values: all this format needs.
    /// `firstLine` is the line the array starts on, for messages.
    static func parseJSON(_ text: String, name: String, firstLine: Int = 1) throws(DragPathError) -> [Sample] {
        var samples: [Sample] = []
        let body = text.trimmingWhitespace
        guard body.hasPrefix("["), body.hasSuffix("]") else { throw DragPathError("\(name):\(firstLine): expected a JSON array") }
        let inner = body.dropFirst().dropLast()
        var objects: [(text: Substring, line: Int)] = []
        var depth = 0, start: Substring.Index?, line = firstLine, startLine = firstLine
        for index in inner.indices {
            switch inner[index] {
            case "{":
                if depth == 0 { (start, startLine) = (inner.index(after: index), line) }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let s = start { objects.append((inner[s..<index], startLine)) }
                if depth < 0 { throw DragPathError("\(name):\(line): unbalanced braces") }
            case let c where c.isNewline: line += 1
            default: break
            }
        }
        guard depth == 0 else { throw DragPathError("\(name):\(startLine): unbalanced braces") }
        for (object, line) in objects {
            var values: [String: Double] = [:]
            for pair in object.split(separator: ",") {
                let parts = pair.split(separator: ":", maxSplits: 1).map { $0.trimmingWhitespace }
                guard parts.count == 2, let value = Self.number(parts[1]) else {
                    throw DragPathError("\(name):\(line): expected \"key\": number")
                }
                values[parts[0].trimmingCharacters("\"")] = value
            }
            guard let t = values["time"] ?? values["t"], let dx = values["dx"], let dy = values["dy"] else {
                throw DragPathError("\(name):\(line): needs time, dx and dy")
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
