import Foundation
import Kira
import KiraFormats
import KiraPNG
import Testing

/// `--foil`, `--intensity`, `--glare` and `--foil-map` in the commands, `kira foils`, and
/// `kira bench --foil`.
@Suite struct LookOptionsTests {
    @Test func everyFoilShadesAsTheLibraryDoes() throws {
        let workspace = try Workspace()
        let face = try Workspace.face(art: workspace.file("textures/front.png"), mask: workspace.file("textures/mask.png"))
        let art = face.art.rgba8, mask = face.mask.rgba8
        let normal = Rotation.normalFromTilt(tiltXDegrees: 6, tiltYDegrees: -9)
        for foil in FoilRegistry.names {
            let result = try workspace.run(card: "shade", "--foil", foil, "--intensity", "1.4", "--glare", "0.5",
                                           "--tilt-x", "6", "--tilt-y", "-9", "-o", "output/\(foil).png")
            #expect(result.status == 0 && result.stderr.isEmpty, "\(foil): \(result.stderr)")
            var parameters = KiraParameters.seed
            parameters.foil = Foil(named: foil)!
            parameters.intensity = 1.4
            parameters.glare = 0.5
            let expected = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, parameters: parameters, as: UInt8.self)
            #expect(try PNGCodec.read(workspace.file("output/\(foil).png")) == .rgba8(expected), "\(foil)")
        }
    }

    @Test func defaultsAreTodaysShader() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "render", "--tilt-x", "5", "--size", "60x80", "-o", "output/a.png").status == 0)
        #expect(try workspace.run(card: "render", "--tilt-x", "5", "--size", "60x80", "--foil", "kira", "--intensity", "1",
                                  "--glare", "0", "-o", "output/b.png").status == 0)
        #expect(try PNGCodec.read(workspace.file("output/a.png")) == PNGCodec.read(workspace.file("output/b.png")))
    }

    @Test func foilMapOfTheArtsAspectRatioIsRead() throws {
        let workspace = try Workspace()
        // Half the art's size (45×63 → 23×32 rounds within the rule), and the art itself.
        let art = try PNGCodec.read(workspace.file("textures/front.png")).rgba8
        try PNGCodec.write(art.lanczosScaled(width: 23, height: 32), to: workspace.file("textures/relief.png"))
        let small = try workspace.run(card: "shade", "--foil", "etched", "--foil-map", "textures/relief.png", "-o", "output/a.png")
        #expect(small.status == 0, "\(small.stderr)")
        let same = try workspace.run(card: "render", "--foil", "etched", "--foil-map", "textures/front.png", "--size", "60x80",
                                     "-o", "output/b.png")
        #expect(same.status == 0, "\(same.stderr)")
        let plain = try workspace.run(card: "shade", "--foil", "etched", "-o", "output/c.png")
        #expect(plain.status == 0)
        #expect(try PNGCodec.read(workspace.file("output/a.png")) != PNGCodec.read(workspace.file("output/c.png")))
    }

    @Test func badLooksAreRefusedNamingWhatIsValid() throws {
        let workspace = try Workspace()
        try PNGCodec.write(try RGBAImage<UInt8>(width: 40, height: 40), to: workspace.file("textures/square.png"))
        let cases: [([String], [String])] = [
            (["--foil", "glitter"], FoilRegistry.names),
            (["--intensity", "2.5"], ["--intensity", "between 0 and 2"]),
            (["--intensity", "nan"], ["--intensity", "between 0 and 2"]),
            (["--intensity=-1"], ["--intensity", "between 0 and 2"]),
            (["--glare", "1.5"], ["--glare", "between 0 and 1"]),
            (["--glare", "nan"], ["--glare", "between 0 and 1"]),
            (["--foil", "etched", "--foil-map", "textures/square.png"], ["40×40", "45×63"]),
        ]
        for command in ["shade", "render"] {
            for (arguments, words) in cases {
                let result = try CLIRunner.run([command] + (command == "shade" ? Workspace.front : Workspace.card)
                                               + arguments + ["-o", "output/x.png"], in: workspace.path)
                #expect(result.status == 2, "\(command) \(arguments)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(command) \(arguments): \(result.stderr)")
                for word in words { #expect(result.stderr.contains(word), "\(command) \(arguments): \(result.stderr)") }
            }
        }
        #expect(workspace.outputs().isEmpty)
    }

    @Test func batchColumnsTakeTheLook() throws {
        let workspace = try Workspace()
        let manifest = "output,art,mask,back,back_mask,size,foil,intensity,glare\n"
            + "out/a.png,textures/front.png,textures/mask.png,textures/back.png,textures/back-mask.png,60x80,gold,0.5,0.3\n"
            + "out/b.png,textures/front.png,textures/mask.png,textures/back.png,textures/back-mask.png,60x80,shiny,1,0\n"
        try manifest.write(toFile: workspace.file("cards.csv"), atomically: false, encoding: .utf8)
        let batch = try workspace.run("batch", "cards.csv")
        #expect(batch.status == 1)
        #expect(batch.stderr.contains("row 2 (out/b.png): foil must be kira, rainbow"), "\(batch.stderr)")
        #expect(try workspace.run(card: "render", "--size", "60x80", "--foil", "gold", "--intensity", "0.5", "--glare", "0.3",
                                  "-o", "output/a.png").status == 0)
        #expect(try PNGCodec.read(workspace.file("out/a.png")) == PNGCodec.read(workspace.file("output/a.png")))
    }

    @Test func galleryHasAColumnPerFoilAndARowPerTilt() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "foils", "--cell-width", "40", "-o", "output/foils.png")
        #expect(result.status == 0, "\(result.stderr)")
        let sheet = try PNGCodec.read(workspace.file("output/foils.png"))
        #expect(sheet.width == 8 + FoilRegistry.names.count * (40 + 8))
        let refused = try workspace.run(card: "foils", "--foil", "gold", "-o", "output/x.png")
        #expect(refused.status == 2 && refused.stderr.contains("every foil"), "\(refused.stderr)")
    }

    @Test func benchMeasuresEachFoilGiven() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "bench", "--path", "simd", "--threads", "1", "--frames", "1", "--repeats", "1",
                                       "--foil", "kira", "--foil", "etched", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""name":"simd","foil":"kira""#) && result.stdout.contains(#""name":"simd","foil":"etched""#),
                "\(result.stdout)")
        let unknown = try workspace.run(card: "bench", "--foil", "chrome")
        #expect(unknown.status == 2 && unknown.stderr.contains("rainbow"), "\(unknown.stderr)")
    }
}
