import Foundation
import Kira
import KiraPNG
import Testing

@Suite struct ShadeCommandTests {
    @Test func shadesTheArtAtItsSize() throws {
        let workspace = try Workspace()
        let result = try workspace.run(card: "shade")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "kira shade: wrote output/shade.png (the default: no --output given)\n")
        let image = try PNGCodec.read(workspace.file("output/shade.png"))
        #expect(image.width == Workspace.artSize.width && image.height == Workspace.artSize.height)
        #expect(image.bitDepth == 8)
        #expect(workspace.outputs() == ["shade.png"])
    }

    @Test func matchesTheLibraryRender() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "shade", "--tilt-x", "-7", "--tilt-y", "4", "-o", "output/a.png").status == 0)
        let face = try Workspace.face(art: workspace.file("textures/front.png"), mask: workspace.file("textures/mask.png"))
        let art = face.art.rgba8, mask = face.mask.rgba8
        let normal = Rotation.normalFromTilt(tiltXDegrees: -7, tiltYDegrees: 4)
        let expected = try ReferenceRenderer.shade(art: art, mask: mask, normal: normal, as: UInt8.self)
        #expect(try PNGCodec.read(workspace.file("output/a.png")) == .rgba8(expected))
    }

    @Test func negativeNumbersAsUsersTypeThem() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "shade", "--tilt-x", "-7", "-o", "output/a.png").status == 0)
        #expect(try workspace.run(card: "shade", "--tilt-x=-7", "-o", "output/b.png").status == 0)
        #expect(try PNGCodec.read(workspace.file("output/a.png")) == PNGCodec.read(workspace.file("output/b.png")))
        let normal = try workspace.run(card: "shade", "--normal", "-0.3,0.2,0.9", "-o", "output/c.png")
        #expect(normal.status == 0, "\(normal.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/c.png")) != PNGCodec.read(workspace.file("output/a.png")))
    }

    @Test func backShadesWithTheNegatedNormal() throws {
        let workspace = try Workspace()
        let back = try workspace.run(
            "shade", "--art", "textures/back.png", "--mask", "textures/back-mask.png", "--back-face", "--tilt-x", "5", "-o", "output/back.png")
        #expect(back.status == 0 && back.stderr.isEmpty, "\(back.stderr)")
        let n = Rotation.normalFromTilt(tiltXDegrees: 5, tiltYDegrees: 0)
        let explicit = try workspace.run(
            "shade", "--art", "textures/back.png", "--mask", "textures/back-mask.png",
            "--normal", "\(-n.x),\(-n.y),\(-n.z)", "-o", "output/explicit.png")
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/back.png")) == PNGCodec.read(workspace.file("output/explicit.png")))
        // The former spelling still works for now, and says what replaces it.
        let former = try workspace.run(
            "shade", "--art", "textures/back.png", "--mask", "textures/back-mask.png", "--back", "--tilt-x", "5", "-o", "output/former.png")
        #expect(former.status == 0 && former.stderr == "kira shade: --back is now --back-face (--back, a file elsewhere, works here until the next release)\n",
                "\(former.stderr)")
        #expect(try PNGCodec.read(workspace.file("output/former.png")) == PNGCodec.read(workspace.file("output/back.png")))
    }

    @Test func sixteenBitOutput() throws {
        let workspace = try Workspace()
        #expect(try workspace.run(card: "shade", "--depth", "16", "-o", "output/deep.png").status == 0)
        #expect(try workspace.run(card: "shade", "-o", "output/flat.png").status == 0)
        let deep = try PNGCodec.read(workspace.file("output/deep.png"))
        #expect(deep.bitDepth == 16)
        // Rounded to 8 bits, the 16-bit render is the 8-bit one (or within one step of it).
        let flat = try PNGCodec.read(workspace.file("output/flat.png")).rgba8
        let worst = zip(deep.rgba8.channels, flat.channels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
    }

    @Test func threadCountDoesNotChangeTheOutput() throws {
        let workspace = try Workspace()
        for threads in [1, 2, 7] {
            #expect(try workspace.run(card: "shade", "--tilt-y", "9", "--threads", "\(threads)", "-o", "output/t\(threads).png").status == 0)
        }
        let one = try PNGCodec.read(workspace.file("output/t1.png"))
        #expect(try PNGCodec.read(workspace.file("output/t2.png")) == one)
        #expect(try PNGCodec.read(workspace.file("output/t7.png")) == one)
    }
}

