import Foundation
import Kira
import KiraPNG
import Testing

@Suite struct CompareCommandTests {
    /// Two renders of the sample card in the workspace, and a copy of the first.
    static func images(in workspace: Workspace) throws {
        #expect(try workspace.run(card: "shade", "-o", "output/a.png").status == 0)
        #expect(try workspace.run(card: "shade", "--tilt-y", "6", "-o", "output/b.png").status == 0)
        #expect(try workspace.run(card: "shade", "-o", "output/same.png").status == 0)
        #expect(try workspace.run(card: "shade", "--depth", "16", "-o", "output/deep.png").status == 0)
    }

    @Test func identicalImagesPass() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let result = try workspace.run("compare", "output/a.png", "output/same.png", "--min-psnr", "60", "--min-ssim", "0.999", "--max-error", "0")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("∞"))
    }

    @Test func differentImagesFailTheTolerances() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let report = try workspace.run("compare", "output/a.png", "output/b.png")
        #expect(report.status == 0, "no tolerance given: a report only")
        #expect(report.stdout.contains("no tolerance given") && !report.stdout.contains("within tolerance"), "\(report.stdout)")
        for tolerance in [["--min-psnr", "60"], ["--min-ssim", "0.9999"], ["--max-error", "1"]] {
            let result = try CLIRunner.run(["compare", "output/a.png", "output/b.png"] + tolerance, in: workspace.path)
            #expect(result.status == 1, "\(tolerance): \(result.stdout)")
            #expect(result.stdout.contains("OUTSIDE"))
        }
    }

    @Test func sixteenBitAgainstEightBit() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        // The 16-bit render rounds to the 8-bit one within one step.
        let result = try workspace.run("compare", "output/deep.png", "output/a.png", "--max-error", "0.5001", "--json")
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func jsonAndDiffMap() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let result = try workspace.run("compare", "output/a.png", "output/b.png", "--json", "--diff", "output/diff.png")
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in ["psnr", "ssim", "max_error", "mean_error", "share_over_threshold", "within_tolerance"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect(object["within_tolerance"] is NSNull, "no tolerance given: neither within nor outside")
        let judged = try workspace.run("compare", "output/a.png", "output/b.png", "--json", "--min-psnr", "1")
        let judgedObject = try #require(try JSONSerialization.jsonObject(with: Data(judged.stdout.utf8)) as? [String: Any])
        #expect(judgedObject["within_tolerance"] as? Bool == true)
        let maxError = try #require(object["max_error"] as? Double)
        #expect(maxError > 0 && maxError == maxError.rounded(), "8-bit errors are whole steps: \(maxError)")
        let diff = try PNGCodec.read(workspace.file("output/diff.png"))
        // The map, widened to the legend's width, with the legend's rows under it.
        #expect(diff.width == max(Workspace.artSize.width, DiffMapLegend.minimumWidth)
                && diff.height == Workspace.artSize.height + DiffMapLegend.height)
        let within = try workspace.run("compare", "output/a.png", "output/b.png", "--min-psnr", "1")
        #expect(within.status == 0 && within.stdout.contains("within tolerance"), "\(within.stdout)")
        let same = try workspace.run("compare", "output/a.png", "output/same.png", "--json")
        let identical = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
        #expect(identical["psnr"] is NSNull, "infinite PSNR is null in JSON")
    }

    @Test(arguments: [["output/a.png", "nope.png"], ["output/a.png", "textures/mask.png", "--min-psnr", "nan"],
                      ["output/a.png", "notes.txt"], ["output/a.png"], ["output/a.png", "output/b.png", "--diff", "output/a.png"]])
    func badInput(arguments: [String]) throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        try "text".write(toFile: workspace.file("notes.txt"), atomically: false, encoding: .utf8)
        let result = try CLIRunner.run(["compare"] + arguments, in: workspace.path)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func differentSizesNameBothSizes() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let result = try workspace.run("compare", "output/a.png", "textures/mask.png")
        #expect(result.status == 2)
        #expect(result.stderr.contains("45×63") && result.stderr.contains("15×21"), "\(result.stderr)")
    }

    @Test func flipMetric() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let result = try workspace.run("compare", "output/a.png", "output/b.png", "--metric", "flip", "--json", "--flip-map", "output/flip.png")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["metric"] as? String == "flip" && object["psnr"] == nil, "ꟻLIP alone: no PSNR")
        let flip = try #require(object["flip"] as? [String: Any])
        for key in ["mean", "weighted_median", "weighted_first_quartile", "weighted_third_quartile", "min", "max", "ppd"] {
            #expect(flip[key] is Double, "\(key)")
        }
        #expect(flip["background"] as? String == "black")
        let mean = try #require(flip["mean"] as? Double)
        #expect(mean > 0 && mean < 1)
        let map = try PNGCodec.read(workspace.file("output/flip.png"))
        #expect(map.width == max(Workspace.artSize.width, DiffMapLegend.minimumWidth) && map.height == Workspace.artSize.height + DiffMapLegend.height)
        let text = try workspace.run("compare", "output/a.png", "output/b.png", "--metric", "all", "--ppd", "30", "--flip-background", "white")
        #expect(text.status == 0 && text.stdout.contains("PSNR") && text.stdout.contains("ꟻLIP") && text.stdout.contains("30.00 ppd, alpha over white"),
                "\(text.stdout)")
        #expect(text.stdout.contains("weighted median"))
    }

    /// With ꟻLIP alone, --diff writes the map of that metric: the same file as --flip-map.
    @Test func diffWithFLIPAloneIsTheFLIPMap() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let viaDiff = try workspace.run("compare", "output/a.png", "output/b.png", "--metric", "flip", "--diff", "output/diff.png")
        #expect(viaDiff.status == 0 && viaDiff.stdout.contains("ꟻLIP"), "\(viaDiff.stderr)")
        let viaMap = try workspace.run("compare", "output/a.png", "output/b.png", "--metric", "flip", "--flip-map", "output/flip.png")
        #expect(viaMap.status == 0, "\(viaMap.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/diff.png")) == PNGCodec.read(workspace.file("output/flip.png")))
    }

    @Test func maxFLIPExitCodes() throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let same = try workspace.run("compare", "output/a.png", "output/same.png", "--max-flip", "0")
        #expect(same.status == 0 && same.stdout.contains("within tolerance"), "\(same.stdout)")
        let loose = try workspace.run("compare", "output/a.png", "output/b.png", "--max-flip", "0.9")
        #expect(loose.status == 0, "\(loose.stdout)")
        let strict = try workspace.run("compare", "output/a.png", "output/b.png", "--max-flip", "0.001")
        #expect(strict.status == 1 && strict.stdout.contains("OUTSIDE tolerance: mean ꟻLIP"), "\(strict.stdout)")
        // With a standard tolerance too, both metrics run.
        let both = try workspace.run("compare", "output/a.png", "output/b.png", "--max-flip", "0.9", "--min-psnr", "1", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(both.stdout.utf8)) as? [String: Any])
        #expect(both.status == 0 && object["metric"] as? String == "all" && object["psnr"] != nil && object["flip"] != nil)
    }

    @Test(arguments: [["--metric", "flp"], ["--max-flip", "1.5"], ["--max-flip", "nan"], ["--ppd", "0"], ["--metric", "flip", "--min-psnr", "30"],
                      ["--ppd", "60"], ["--metric", "all", "--ppd", "60", "--monitor-distance", "1"], ["--metric", "flip", "--flip-background", "grey"],
                      ["--metric", "flip", "--monitor-width", "-1"], ["--metric", "flip", "--flip-map", "output/a.png"],
                      ["--metric", "flip", "--diff", "output/d.png", "--flip-map", "output/f.png"]])
    func badFLIPOptions(arguments: [String]) throws {
        let workspace = try Workspace()
        try Self.images(in: workspace)
        let result = try CLIRunner.run(["compare", "output/a.png", "output/b.png"] + arguments, in: workspace.path)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
