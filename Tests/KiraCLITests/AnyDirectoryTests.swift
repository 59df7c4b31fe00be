import Foundation
import Kira
import KiraPNG
import Testing

/// Every command works with its defaults from a directory that holds nothing: the sample card is
/// built in, and default outputs create their folders.
@Suite struct AnyDirectoryTests {
    @Test func shadeDrawsTheBuiltInSampleCard() throws {
        let workspace = try Workspace(empty: ())
        let result = try workspace.run("shade", "--tilt-y", "6")
        // One line, where the default output went.
        #expect(result.status == 0 && result.stderr == "kira shade: wrote output/shade.png (the default: no --output given)\n", "\(result.stderr)")
        let normal = Rotation.normalFromTilt(tiltXDegrees: 0, tiltYDegrees: 6)
        let expected = try ShadeRenderer().shade(art: try SampleCard.front(), mask: try SampleCard.mask(), normal: normal, as: UInt8.self)
        #expect(try PNGCodec.read(workspace.file("output/shade.png")) == .rgba8(expected))
    }

    @Test(arguments: [
        (["render", "--scale", "0.1", "--flip", "170"], ["output/render.png"]),
        (["animate", "--preset", "seed004-flip", "--fps", "2", "--scale", "0.1"],
         ["output/flip-quick/frame-0000.png", "output/flip-quick/frame-0001.png"]),
        (["textures", "--size", "20x28"], ["textures/front.png", "textures/back.png", "textures/mask.png", "textures/back-mask.png"]),
        (["bench", "--size", "24x32", "--frames", "1", "--repeats", "1", "--threads", "1", "--quiet"], []),
    ])
    func defaultsWorkFromAnEmptyDirectory(arguments: [String], outputs: [String]) throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(arguments, in: workspace.path)
        // Nothing on stderr but where a default output went.
        let lines = result.stderr.split(separator: "\n")
        #expect(result.status == 0 && lines.count == (outputs.isEmpty || arguments[0] == "textures" ? 0 : 1), "\(arguments): \(result.stderr)")
        #expect(lines.allSatisfy { $0.contains("(the default: no --output") }, "\(arguments): \(result.stderr)")
        for output in outputs {
            #expect(workspace.exists(output), "\(arguments): \(output) missing")
        }
    }

    @Test func anOutputPathTheUserGivesMustBeInAnExistingFolder() throws {
        let workspace = try Workspace(empty: ())
        // Refused before any rendering (by the check that says "no such directory"; the writer,
        // after the render, would say "No such file or directory").
        for command in [["render", "--size", "64x80"], ["shade"]] {
            let result = try CLIRunner.run(command + ["-o", "elsewhere/x.png"], in: workspace.path)
            #expect(result.status == 2 && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("elsewhere/x.png: cannot create a file in elsewhere: no such directory"),
                    "\(result.stderr)")
            #expect(!workspace.exists("elsewhere"))
        }
    }
}
