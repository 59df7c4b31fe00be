import KiraArguments

/// What `kira bench` prints.
public struct BenchReport: Sendable {
    public struct Path: Sendable {
        public var name: String
        /// The foil the path shaded with (the coding paths: the foil of the frame they code).
        public var foil: String
        public var width: Int
        public var height: Int
        public var frames: Int
        public var threads: Int
        public var seconds: Double

        public var megapixelsPerSecond: Double { Double(width * height * frames) / seconds / 1e6 }
        public var framesPerSecond: Double { Double(frames) / seconds }
    }

    /// How Kira was built (release or debug, CPU target).
    public var build: String
    public var width: Int
    public var height: Int
    public var paths: [Path] = []

    /// The report as a table, one path per line.
    public var table: String {
        var lines = ["kira bench: \(width)×\(height), \(build)"]
        lines.append(pad("path", 16) + pad("foil", 9) + pad("threads", 8, right: true) + pad("frames", 8, right: true)
            + pad("seconds", 10, right: true) + pad("Mpx/s", 10, right: true) + pad("frames/s", 10, right: true)
            + pad("vs 1 thread", 12, right: true))
        for path in paths {
            let single = paths.first { $0.name == path.name && $0.foil == path.foil && $0.threads == 1 }
            let scaling = single.map { String(decimal2(path.megapixelsPerSecond / $0.megapixelsPerSecond)) + "×" } ?? ""
            lines.append(pad(path.name, 16) + pad(path.foil, 9) + pad("\(path.threads)", 8, right: true) + pad("\(path.frames)", 8, right: true)
                + pad(decimal3(path.seconds), 10, right: true) + pad(decimal1(path.megapixelsPerSecond), 10, right: true)
                + pad(decimal1(path.framesPerSecond), 10, right: true) + pad(path.threads == 1 ? "" : scaling, 12, right: true))
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object.
    public var json: String {
        let items = paths.map { p in
            #"{"name":"\#(p.name)","foil":"\#(p.foil)","width":\#(p.width),"height":\#(p.height),"frames":\#(p.frames),"threads":\#(p.threads),"seconds":\#(p.seconds),"mpx_per_s":\#(p.megapixelsPerSecond),"frames_per_s":\#(p.framesPerSecond)}"#
        }
        return #"{"build":"\#(build)","width":\#(width),"height":\#(height),"paths":[\#(items.joined(separator: ","))]}"#
    }

    private func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, n - s.count))
        return right ? fill + s : s + fill
    }

    private func decimal1(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 1) }
    private func decimal2(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 2) }
    private func decimal3(_ x: Double) -> String { ArgumentValues.decimal(x, digits: 3) }
}
