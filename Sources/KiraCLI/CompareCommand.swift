import ArgumentParser
import Dispatch
import Foundation
import Kira
import KiraFiles
import KiraPNG
import Synchronization

/// `kira compare`: how far apart two images are, with CI-friendly exit codes.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images: PSNR, SSIM, max and mean error, share of pixels off; exit 1 when outside the tolerances.",
        discussion: """
            Reads PNG, and the still WebP and JPEG files Kira writes (their pixels as stored; colour \
            profiles are not applied). Channels are compared as fractions of full scale, so 8- and \
            16-bit images compare on one scale and 16-bit ones at 16-bit precision. Errors count R, G \
            and B, and alpha only when a file stores it (a PNG's alpha channel or tRNS, a WebP's alpha; \
            "channels" in --json says which); with --background both are flattened onto that colour \
            first, so a transparent image compares with a JPEG of it by what each shows. SSIM (Wang et al. \
            2004: Gaussian window 11, σ 1.5, K1 0.01, K2 0.03) is computed on the Rec. 709 luma of R, G, \
            B (alpha ignored); as in scikit-image, images smaller than 11×11 have none ("ssim" is null, \
            and --min-ssim refuses them). Errors are in 8-bit steps; in --json, "psnr" is null for \
            identical images. ꟻLIP (--metric flip or all; NVIDIA's LDR-ꟻLIP, Andersson et al. 2020) gives \
            each pixel an error from 0 to 1 for how visible the difference is when flipping between the \
            two images at a viewing distance (--ppd, or the --monitor-* options), from colours filtered \
            by the eye's contrast sensitivity and from edges and points. Its mean is the usual single \
            figure, and images with alpha are composited over --flip-background (\(FLIPBackground.standard.rawValue)) first. Exit \
            status: 0 within the tolerances given (or none given), 1 outside, 2 on bad input.
            """
    )

    @Argument(help: ArgumentHelp("The first image, the reference (PNG, or a still WebP or JPEG).", valueName: "A.png"))
    var first: String

    @Argument(help: ArgumentHelp("The second image (PNG, or a still WebP or JPEG).", valueName: "B.png"))
    var second: String

    @Option(help: ArgumentHelp("Flatten both images onto this colour (#RRGGBB, or white or black) before PSNR, SSIM, the errors and --diff: what a transparent image shows over it, e.g. against a JPEG of it flattened onto white (default: alpha compared as a channel).", valueName: "colour"))
    var background: String?

    @Option(help: ArgumentHelp("Write a heat map of the differences (PNG), with its legend under it: a colour bar from 0 to 16+ 8-bit steps. With --metric flip: the ꟻLIP map, as --flip-map.", valueName: "path"))
    var diff: String?

    @Option(name: .customLong("min-psnr"), help: ArgumentHelp("Fail below this PSNR, in dB.", valueName: "dB"))
    var minPSNR: Double?

    @Option(name: .customLong("min-ssim"), help: ArgumentHelp("Fail below this SSIM (0...1).", valueName: "s"))
    var minSSIM: Double?

    @Option(name: .customLong("max-error"),
            help: ArgumentHelp("Fail when a channel is off by more than this, in 8-bit steps (e.g. 1; fractions for 16-bit).", valueName: "e"))
    var maxError: Double?

    @Option(help: ArgumentHelp("A pixel counts as off when a channel differs by more than this, in 8-bit steps.", valueName: "e"))
    var threshold: Double = 1

    @Option(help: ArgumentHelp("standard: PSNR, SSIM and the errors; flip: LDR-ꟻLIP alone; all: both (default: what the tolerances and maps given need, else standard).", valueName: "standard|flip|all"))
    var metric: String?

    @Option(name: .customLong("max-flip"), help: ArgumentHelp("Fail when the mean ꟻLIP error is above this (0...1).", valueName: "e"))
    var maxFLIP: Double?

    @Option(name: .customLong("flip-map"), help: ArgumentHelp("Write the ꟻLIP error map (PNG, magma colours), with its legend under it: a colour bar from 0 to 1.", valueName: "path"))
    var flipMap: String?

    @Option(help: ArgumentHelp("ꟻLIP's pixels per degree of visual angle (default \(format2(FLIPViewing.standard.pixelsPerDegree)): a \(standardMonitor.width) m wide \(standardMonitor.resolution)-pixel monitor at \(standardMonitor.distance) m).", valueName: "ppd"))
    var ppd: Double?

    @Option(name: .customLong("monitor-distance"), help: ArgumentHelp("ꟻLIP's viewing distance, in metres (default \(standardMonitor.distance)); with --monitor-width and --monitor-pixels instead of --ppd.", valueName: "m"))
    var monitorDistance: Double?

    @Option(name: .customLong("monitor-width"), help: ArgumentHelp("ꟻLIP's monitor width, in metres (default \(standardMonitor.width)).", valueName: "m"))
    var monitorWidth: Double?

    @Option(name: .customLong("monitor-pixels"), help: ArgumentHelp("ꟻLIP's monitor width, in pixels (default \(standardMonitor.resolution)).", valueName: "px"))
    var monitorPixels: Double?

    @Option(name: .customLong("flip-background"), help: ArgumentHelp("What images with alpha are composited over before ꟻLIP: \(FLIPBackground.allCases.map { $0 == .standard ? "\($0.rawValue) (default)" : $0.rawValue }.joined(separator: " or ")).", valueName: "\(FLIPBackground.allCases.map(\.rawValue).joined(separator: "|"))"))
    var flipBackground: String?

    @Flag(help: "Print one JSON object instead of a report.")
    var json = false

    @OptionGroup var memory: MemoryOptions

    func validate() throws {
        if let minPSNR { try Check.number(minPSNR, "--min-psnr", in: 0...1000, example: 40) }
        if let minSSIM { try Check.number(minSSIM, "--min-ssim", in: -1...1, example: 0.99) }
        if let maxError { try Check.number(maxError, "--max-error", in: 0...255, example: 2) }
        try Check.number(threshold, "--threshold", in: 0...255, example: 8)
        if let metric, !["standard", "flip", "all"].contains(metric) {
            throw ValidationError("--metric must be standard, flip or all, not \(QuotedValue.quoted(metric))")
        }
        if let background, Self.colour(background) == nil {
            throw ValidationError("--background must be #RRGGBB, white or black, e.g. #ffffff, not \(QuotedValue.quoted(background))")
        }
        if let flipBackground, FLIPBackground(rawValue: flipBackground) == nil {
            throw ValidationError("--flip-background must be black or white, not \(QuotedValue.quoted(flipBackground))")
        }
        if !computesFLIP, let option = flipOptions.first {
            throw ValidationError("\(option) applies to ꟻLIP: add --metric flip (or all)")
        }
        if !computesStandard, let option = standardOptions.first {
            throw ValidationError("\(option) applies to --metric standard or all, not flip")
        }
        if metric == "flip", diff != nil, flipMap != nil {
            throw ValidationError("--diff and --flip-map both name the ꟻLIP map with --metric flip: give one")
        }
        if let maxFLIP { try Check.number(maxFLIP, "--max-flip", in: 0...1, example: 0.05) }
        if let ppd { try Check.number(ppd, "--ppd", in: 1...10000, example: 67.02) }
        if let monitorDistance { try Check.number(monitorDistance, "--monitor-distance", in: 0.01...100, example: 0.7) }
        if let monitorWidth { try Check.number(monitorWidth, "--monitor-width", in: 0.01...100, example: 0.7) }
        if let monitorPixels { try Check.number(monitorPixels, "--monitor-pixels", in: 1...100_000, example: 3840) }
        if ppd != nil, monitorDistance != nil || monitorWidth != nil || monitorPixels != nil {
            throw ValidationError("--ppd or --monitor-distance, --monitor-width and --monitor-pixels, not both")
        }
        let ppd = viewing.pixelsPerDegree
        guard ppd >= 1 && ppd <= 10000 else {
            throw ValidationError("the monitor gives \(format2(ppd)) pixels per degree; it must be between 1 and 10000, e.g. \(format2(FLIPViewing.standard.pixelsPerDegree)) (\(standardMonitor.distance) m, \(standardMonitor.width) m, \(standardMonitor.resolution) px)")
        }
    }

    /// The options given that only the standard metrics use.
    private var standardOptions: [String] {
        [(minPSNR != nil, "--min-psnr"), (minSSIM != nil, "--min-ssim"), (maxError != nil, "--max-error"), (diff != nil && metric != "flip", "--diff"),
         (background != nil, "--background")]
            .filter(\.0).map(\.1)
    }

    /// The options given that only ꟻLIP uses.
    private var flipOptions: [String] {
        [(maxFLIP != nil, "--max-flip"), (flipMap != nil, "--flip-map"), (ppd != nil, "--ppd"), (monitorDistance != nil, "--monitor-distance"),
         (monitorWidth != nil, "--monitor-width"), (monitorPixels != nil, "--monitor-pixels"), (flipBackground != nil, "--flip-background")]
            .filter(\.0).map(\.1)
    }

    /// --metric, or what the tolerances and maps given need: ꟻLIP is slower than PSNR and SSIM
    /// together, so it runs only when asked for.
    private var resolvedMetric: String {
        if let metric { return metric }
        let flip = maxFLIP != nil || flipMap != nil
        return flip ? (standardOptions.isEmpty ? "flip" : "all") : "standard"
    }

    private var computesFLIP: Bool { resolvedMetric != "standard" }
    /// Where the ꟻLIP map goes: --flip-map, or --diff when ꟻLIP is the only metric (a map of the
    /// metric asked for).
    private var flipMapPath: String? { flipMap ?? (metric == "flip" ? diff : nil) }
    /// Where the heat map of the differences goes.
    private var diffPath: String? { metric == "flip" ? nil : diff }
    private var computesStandard: Bool { resolvedMetric != "flip" }

    /// The viewing conditions of ꟻLIP: --ppd, or the monitor (the library fills the parts not given).
    private var viewing: FLIPViewing {
        if let ppd { return FLIPViewing(pixelsPerDegree: ppd) }
        return FLIPViewing(monitorDistance: monitorDistance, monitorWidth: monitorWidth, resolution: monitorPixels)
    }

    /// `#RRGGBB`, `white` or `black` as a colour.
    static func colour(_ text: String) -> SIMD3<UInt8>? {
        switch text.lowercased() {
        case "white": return SIMD3(255, 255, 255)
        case "black": return SIMD3(0, 0, 0)
        default:
            let hex = Array(text.utf8)
            guard hex.count == 7, hex[0] == UInt8(ascii: "#"), let value = UInt32(String(decoding: hex[1...], as: UTF8.self), radix: 16) else { return nil }
            return SIMD3(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        }
    }

    /// The comparison the options describe.
    private var request: ComparisonRequest {
        ComparisonRequest(metric: ComparisonRequest.Metric(rawValue: resolvedMetric) ?? .standard, threshold: threshold / 255, viewing: viewing,
                          flipBackground: flipBackground.flatMap(FLIPBackground.init(rawValue:)) ?? .standard,
                          background: background.flatMap(Self.colour), heatMap: diffPath != nil, flipMap: flipMapPath != nil)
    }

    func run() throws {
        try FileIO.checkDistinct(inputs: [first, second], outputs: [diff, flipMap].compactMap { $0 })
        let request = self.request
        // Sizes from the headers, and the memory the comparison needs, before anything is decoded.
        let limit = max(0, memory.budget.bytes)
        let fileA = try ComparedFile.open(first, limit: limit), fileB = try ComparedFile.open(second, limit: limit)
        guard (fileA.width, fileA.height) == (fileB.width, fileB.height) else {
            throw InputError("sizes differ: \(QuotedValue.shown(first)) is \(fileA.width)×\(fileA.height), \(QuotedValue.shown(second)) is \(fileB.width)×\(fileB.height)")
        }
        try memory.budget.check(MemoryBudget.sum(fileA.bytes.count + fileB.bytes.count, request.estimatedPeakBytes(
                                    width: fileA.width, height: fileA.height, decodedBytes: fileA.decodedBytes + fileB.decodedBytes,
                                    mixedDepths: fileA.bitDepth != fileB.bitDepth)),
                                for: "comparing \(fileA.width)×\(fileA.height) images", hint: "compare smaller images (or crops of them)")
        // Both files at once, one a core: decoding is a third of a ꟻLIP comparison's time.
        let decoded = Mutex<[Int: Result<(image: AnyRGBAImage, hasAlpha: Bool), ImageFileError>]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let result = Result { () throws(ImageFileError) in try (i == 0 ? fileA : fileB).decode() }
            decoded.withLock { $0[i] = result }
        }
        let files = decoded.withLock { $0 }
        let a = try files[0]!.get(), b = try files[1]!.get()
        guard ImageComparison.sizesMatch(a.image, b.image) else {
            throw InputError("sizes differ: \(QuotedValue.shown(first)) is \(a.image.width)×\(a.image.height), \(QuotedValue.shown(second)) is \(b.image.width)×\(b.image.height)")
        }
        let result = try request.compare(a, b)
        if minSSIM != nil, let comparison = result.standard, comparison.ssim == nil {
            throw InputError("--min-ssim: SSIM needs images of at least \(SSIM.windowSide)×\(SSIM.windowSide) pixels (its window); these are \(a.image.width)×\(a.image.height)")
        }
        var failures: [String] = []
        if let minPSNR, let comparison = result.standard, comparison.psnr < minPSNR { failures.append("PSNR \(format2(comparison.psnr)) dB < \(minPSNR)") }
        if let minSSIM, let ssim = result.standard?.ssim, ssim < minSSIM { failures.append("SSIM \(formatted(ssim, digits: 5)) < \(minSSIM)") }
        if let maxError, let comparison = result.standard, comparison.maxError * 255 > maxError * (1 + 1e-9) {
            failures.append("max error \(format2(comparison.maxError * 255)) > \(maxError)")
        }
        if let maxFLIP, let flip = result.flip, flip.statistics.mean > maxFLIP {
            failures.append("mean ꟻLIP \(formatted(flip.statistics.mean, digits: 4)) > \(maxFLIP)")
        }
        if let flipMapPath, let map = result.flipMap { try PNGCodec.write(map, to: flipMapPath) }
        if let diffPath, let map = result.heatMap { try PNGCodec.write(map, to: diffPath) }
        let report = ComparisonReport(a: first, b: second, width: a.image.width, height: a.image.height, metric: resolvedMetric,
                                      background: background.flatMap(Self.colour).map(Self.hex), standard: result.standard, flip: result.flip,
                                      failures: hasTolerance ? failures : nil)
        try writeToStandardOutput((json ? Self.json(report) : text(report, alphaStored: (a.hasAlpha, b.hasAlpha))) + "\n")
        if !failures.isEmpty { throw ExitCode(1) }
    }

    static func hex(_ colour: SIMD3<UInt8>) -> String {
        "#" + [colour.x, colour.y, colour.z].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The report as one line of JSON, keys sorted.
    static func json(_ report: ComparisonReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(report)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Whether any tolerance was given to check against.
    private var hasTolerance: Bool { minPSNR != nil || minSSIM != nil || maxError != nil || maxFLIP != nil }

    /// The report as text: a line a figure, then the verdict.
    private func text(_ report: ComparisonReport, alphaStored: (Bool, Bool)) -> String {
        var text = "\(first) vs \(second), \(report.width)×\(report.height)\n"
        if let c = report.standard {
            let psnr = c.psnr.isFinite ? "\(format2(c.psnr)) dB" : "∞ (identical)"
            let channels = report.background.map { "R, G, B over \($0) (both flattened onto it)" }
                ?? (c.comparesAlpha
                    ? "R, G, B, A" + (alphaStored.0 != alphaStored.1 ? " (only \(alphaStored.0 ? "A" : "B") stores alpha: --background compares what both show over a colour)" : "")
                    : "R, G, B (neither file stores alpha)")
            text += """
                channels    \(channels)
                PSNR        \(psnr)
                SSIM        \(c.ssim.map { "\(formatted($0, digits: 5)) (luma)" } ?? "none: smaller than the \(SSIM.windowSide)×\(SSIM.windowSide) window")
                max error   \(format2(c.maxError * 255)) / 255
                mean error  \(formatted(c.meanAbsoluteError * 255, digits: 4)) / 255
                pixels off  \(formatted(c.shareOverThreshold * 100, digits: 3)) % (by more than \(format2(c.threshold * 255)) / 255)

                """
        }
        if let flip = report.flip { text += flipText(flip) }
        let tolerances = computesStandard ? "--min-psnr, --min-ssim, --max-error" + (computesFLIP ? ", --max-flip" : "") : "--max-flip"
        let failures = report.failures ?? []
        text += report.failures == nil ? "no tolerance given (\(tolerances))" : failures.isEmpty ? "within tolerance" : "OUTSIDE tolerance: " + failures.joined(separator: "; ")
        return text
    }

    /// The ꟻLIP lines of the report, ending in a newline.
    private func flipText(_ f: FLIPComparison) -> String {
        let s = f.statistics
        let n = { (x: Double) in formatted(x, digits: 4) }
        return """
            ꟻLIP        mean \(n(s.mean)) (LDR, \(format2(f.viewing.pixelsPerDegree)) ppd, alpha over \(f.background.rawValue))
                        weighted median \(n(s.weightedMedian)), weighted quartiles \(n(s.weightedFirstQuartile)) and \(n(s.weightedThirdQuartile)), min \(n(s.min)), max \(n(s.max))

            """
    }
}

/// The library's default monitor for ꟻLIP, its parts as the help text prints them (`0.7`, `3840`).
private let standardMonitor = (distance: shortNumber(FLIPViewing.standardMonitor.distance), width: shortNumber(FLIPViewing.standardMonitor.width),
                               resolution: shortNumber(FLIPViewing.standardMonitor.resolution))

private func shortNumber(_ x: Double) -> String { x == x.rounded() ? "\(Int(x))" : "\(x)" }
