import ArgumentParser
import Kira

/// `kira compare`: how far apart two images are, with CI-friendly exit codes.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two images: PSNR, SSIM, max and mean error, share of pixels off; exit 1 when outside the tolerances.",
        discussion: """
            Channels are compared as fractions of full scale, so 8- and 16-bit images compare on one \
            scale and 16-bit ones at 16-bit precision. Errors count R, G and B, and alpha only when a \
            file stores it (an alpha channel or tRNS; "channels" in --json says which). SSIM (Wang et al. \
            2004: Gaussian window 11, σ 1.5, K1 0.01, K2 0.03) is computed on the Rec. 709 luma of R, G, \
            B (alpha ignored); as in scikit-image, images smaller than 11×11 have none ("ssim" is null, \
            and --min-ssim refuses them). Errors are in 8-bit steps; in --json, "psnr" is null for \
            identical images. Exit status: 0 within the tolerances given (or none given), 1 outside, 2 \
            on bad input.
            """
    )

    @Argument(help: ArgumentHelp("The first image (PNG).", valueName: "A.png"))
    var first: String

    @Argument(help: ArgumentHelp("The second image (PNG).", valueName: "B.png"))
    var second: String

    @Option(help: ArgumentHelp("Write a heat map of the differences (PNG).", valueName: "path"))
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

    @Flag(help: "Print one JSON object instead of a report.")
    var json = false

    @OptionGroup var memory: MemoryOptions

    func validate() throws {
        if let minPSNR { try Check.number(minPSNR, "--min-psnr", in: 0...1000) }
        if let minSSIM { try Check.number(minSSIM, "--min-ssim", in: -1...1) }
        if let maxError { try Check.number(maxError, "--max-error", in: 0...255) }
        try Check.number(threshold, "--threshold", in: 0...255)
    }

    func run() throws {
        try FileIO.checkDistinct(inputs: [first, second], outputs: diff.map { [$0] } ?? [])
        // From the headers, before anything is decoded (files that are streams: after).
        if let (a, aBytes) = try PNGHeader.read(first), let (b, bBytes) = try PNGHeader.read(second) {
            guard (a.width, a.height) == (b.width, b.height) else {
                throw InputError("sizes differ: \(first) is \(a.width)×\(a.height), \(second) is \(b.width)×\(b.height)")
            }
            try memory.budget.check(aBytes + bBytes + peak(a.width, a.height, decoded: a.decodedBytes + b.decodedBytes,
                                                    mixedDepths: (a.bitDepth == 16) != (b.bitDepth == 16)),
                             for: "comparing \(a.width)×\(a.height) images", hint: "compare smaller images (or crops of them)")
        }
        let fileA = try PNGCodec.readFile(first), fileB = try PNGCodec.readFile(second)
        let a = fileA.image, b = fileB.image
        guard ImageComparison.sizesMatch(a, b) else {
            throw InputError("sizes differ: \(first) is \(a.width)×\(a.height), \(second) is \(b.width)×\(b.height)")
        }
        try memory.budget.check(peak(a.width, a.height, decoded: a.byteCount + b.byteCount, mixedDepths: a.bitDepth != b.bitDepth),
                         for: "comparing \(a.width)×\(a.height) images", hint: "compare smaller images (or crops of them)")
        let comparison = ImageComparison(a, b, threshold: threshold / 255, comparesAlpha: fileA.hasAlpha || fileB.hasAlpha)
        if minSSIM != nil, comparison.ssim == nil {
            throw InputError("--min-ssim: SSIM needs images of at least \(SSIM.windowSide)×\(SSIM.windowSide) pixels (its window); these are \(a.width)×\(a.height)")
        }
        var failures: [String] = []
        if let minPSNR, comparison.psnr < minPSNR { failures.append("PSNR \(format2(comparison.psnr)) dB < \(minPSNR)") }
        if let minSSIM, let ssim = comparison.ssim, ssim < minSSIM { failures.append("SSIM \(formatted(ssim, digits: 5)) < \(minSSIM)") }
        if let maxError, comparison.maxError * 255 > maxError * (1 + 1e-9) {
            failures.append("max error \(format2(comparison.maxError * 255)) > \(maxError)")
        }
        if let diff { try PNGCodec.write(DiffMap.heatMap(a, b), to: diff) }
        try writeToStandardOutput((json ? report(comparison, failures).json : report(comparison, failures).text) + "\n")
        if !failures.isEmpty { throw ExitCode(1) }
    }

    private func peak(_ width: Int, _ height: Int, decoded: Int, mixedDepths: Bool) -> Int {
        ImageComparison.estimatedPeakBytes(width: width, height: height, decodedBytes: decoded, mixedDepths: mixedDepths, heatMap: diff != nil)
    }

    private func report(_ c: ImageComparison, _ failures: [String]) -> (text: String, json: String) {
        let psnr = c.psnr.isFinite ? "\(format2(c.psnr)) dB" : "∞ (identical)"
        let text = """
            \(first) vs \(second), \(c.width)×\(c.height)
            channels    \(c.comparesAlpha ? "R, G, B, A" : "R, G, B (neither file stores alpha)")
            PSNR        \(psnr)
            SSIM        \(c.ssim.map { "\(formatted($0, digits: 5)) (luma)" } ?? "none: smaller than the \(SSIM.windowSide)×\(SSIM.windowSide) window")
            max error   \(format2(c.maxError * 255)) / 255
            mean error  \(formatted(c.meanAbsoluteError * 255, digits: 4)) / 255
            pixels off  \(formatted(c.shareOverThreshold * 100, digits: 3)) % (by more than \(format2(c.threshold * 255)) / 255)
            \(failures.isEmpty ? "within tolerance" : "OUTSIDE tolerance: " + failures.joined(separator: "; "))
            """
        // JSON has no infinity: identical images have "psnr": null.
        let json = #"{"a":"\#(escaped(first))","b":"\#(escaped(second))","width":\#(c.width),"height":\#(c.height),"channels":"\#(c.comparesAlpha ? "RGBA" : "RGB")","psnr":\#(c.psnr.isFinite ? "\(c.psnr)" : "null"),"ssim":\#(c.ssim.map { "\($0)" } ?? "null"),"max_error":\#(steps(c.maxError)),"mean_error":\#(steps(c.meanAbsoluteError)),"share_over_threshold":\#(c.shareOverThreshold),"threshold":\#(steps(c.threshold)),"within_tolerance":\#(failures.isEmpty)}"#
        return (text, json)
    }

    /// A fraction of full scale in 8-bit steps, rounded to 1e-9 steps so that 8-bit errors print
    /// as whole numbers (`1.0`, not the `1.0000000000000249` of `(1 / 255) · 255`).
    private func steps(_ x: Double) -> Double { (x * 255 * 1e9).rounded() / 1e9 }

    private func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
