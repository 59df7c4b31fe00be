import ArgumentParser
import Dispatch
import Kira
import KiraFiles
import KiraBench
import KiraPNG

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `kira bench`: measures the shader paths on this machine.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure shader throughput: scalar reference, SIMD cold frames at 1…N threads, tilt sweeps, PNG coding.",
        discussion: """
            Every figure is a measurement on this machine: each path runs its frames several times \
            and the best run is reported. Without --art the built-in sample card is resized to --size.
            """
    )

    @Option(help: ArgumentHelp("Frame size.", valueName: "WxH"))
    var size = SizeArgument(width: 1260, height: 1760)

    @Option(help: ArgumentHelp("Frames per measured run of the SIMD paths (the sweep renders them in one pass).", valueName: "n"))
    var frames = 16

    @Option(help: ArgumentHelp("Most threads to measure (default: one per processor).", valueName: "n"))
    var threads: Int?

    @Option(help: ArgumentHelp("Card art (PNG), used at its own size.", valueName: "path"))
    var art: String?

    @Option(help: ArgumentHelp("Holo mask (PNG).", valueName: "path"))
    var mask: String?

    @Option(help: ArgumentHelp("Timed runs per path; the best is reported.", valueName: "n"))
    var repeats = 3

    @Option(name: .customLong("path"),
            help: ArgumentHelp("Measure only this path (repeatable; default: all of them).", valueName: "name"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Shade with this foil (repeatable, each measured in turn in the same run; 'all' for every foil; default: kira).", valueName: "name"))
    var foil: [String] = []

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(help: "No plan, estimate or progress lines (the estimate comes from timing one frame of each path first; progress is a bar on a terminal, a line every 10 s otherwise).")
    var quiet = false

    @OptionGroup var memory: MemoryOptions

    func validate() throws {
        try Check.integer(frames, "--frames", in: 1...1000, example: 60)
        try Check.integer(repeats, "--repeats", in: 1...100, example: 5)
        if let threads { try Check.integer(threads, "--threads", in: 1...1024, example: 4) }
        if (art == nil) != (mask == nil) { throw ValidationError("give --art and --mask together") }
        for path in paths where !Bench.pathNames.contains(path) {
            throw ValidationError("unknown path \(QuotedValue.quoted(path, mark: "'")) (one of \(Bench.pathNames.joined(separator: ", ")))")
        }
        for name in foil where name != "all" && Foil(named: name) == nil {
            throw ValidationError("unknown foil \(QuotedValue.quoted(name, mark: "'")) (one of \(FoilRegistry.names.joined(separator: ", ")), or all)")
        }
    }

    /// The foils to measure, in the order given, each once ('all': every foil).
    var foils: [Foil] {
        var foils: [Foil] = []
        for name in foil {
            for each in name == "all" ? Foil.all : [Foil(named: name)!] where !foils.contains(each) { foils.append(each) }
        }
        return foils.isEmpty ? [.kira] : foils
    }

    func run() throws {
        // Known from the size alone, so the sample card's resize is skipped when the work is refused.
        if art == nil { _ = try Bench.batches(width: size.width, height: size.height, frames: frames, budget: memory.budget) }
        let (artImage, maskImage) = try loadCard()
        let maxThreads = threads ?? TileScheduler.processorCount
        var bench = Bench(art: artImage, mask: maskImage, frames: frames, repeats: repeats, only: Set(paths), foils: foils,
                          build: BuildInfo.summary)
        try bench.fit(in: memory.budget)
        // Minutes at large sizes: the plan and its estimate first, then each path's progress (a
        // bar on a terminal, lines into a log).
        let progress = BenchProgress()
        if !quiet {
            let terminal = isatty(2) != 0
            writeToStandardError("kira bench: timing one frame of each path for an estimate…" + (terminal ? "" : "\n"))
            let plan = try bench.plan(maxThreads: maxThreads)
            writeToStandardError((terminal ? "\r\u{1B}[K" : "") + plan.summary + "\n")
            bench.onStart = { name, threads, frames in progress.start("kira bench: \(name), \(threads) thread\(threads == 1 ? "" : "s")…", frames: frames) }
            bench.onFrame = { progress.update($0) }
        }
        try bench.measureAll(maxThreads: maxThreads)
        progress.finish()
        try writeToStandardOutput((json ? bench.report.json : bench.report.table) + "\n")
    }

    private func loadCard() throws -> (RGBAImage<UInt8>, RGBAImage<UInt8>) {
        if let art, let mask {
            try memory.budget.checkDecoding([art, mask])
            return (try PNGCodec.read(art).rgba8, try PNGCodec.read(mask).rgba8)
        }
        return try Bench.sampleCard(width: size.width, height: size.height)
    }
}
