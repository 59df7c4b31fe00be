#if canImport(Glibc)
import Glibc
#endif
import KiraGeometry
import KiraImage
import KiraPNG
import KiraRender
import KiraRequest
import KiraSamples
import Testing

@Suite struct RenderRequestTests {
    /// No values is the default request; the default request is the sample card at rest on the
    /// canvas that holds it tilted by ±45°.
    @Test func noValuesIsTheDefault() throws {
        let request = try RenderRequest(values: [])
        #expect(request == RenderRequest())
        #expect(request.values.isEmpty)
        let scene = try request.scene(front: BuiltInCard.front, back: BuiltInCard.back)
        let size = try FrameScene.defaultCanvasSize(cardWidth: BuiltInCard.front.art.width, cardHeight: BuiltInCard.front.art.height)
        #expect(scene.canvasWidth == size.width && scene.canvasHeight == size.height)
        #expect(scene.pose == CardPose() && scene.background == .transparent && scene.cardScale == 1)
    }

    /// Every parameter set away from its default is reported in its canonical spelling, and those
    /// values make the same request again.
    @Test func canonicalValuesRoundTrip() throws {
        let given: [(String, String)] = [
            ("art", "a.png"), ("mask", "m.png"), ("back", "b.png"), ("back_mask", "bm.png"), ("foil_map", "f.png"),
            ("tilt_x", "8.0"), ("tilt_y", "-14"), ("flip", "60.5"), ("axis", "xy"), ("perspective", "0.3"), ("tilt_perspective", "2"),
            ("crossfade", "yes"), ("size", "1000X1300"), ("background", "#1B1F2A"), ("scale", "0.5"),
            ("shader", "threejs"), ("angle_strength", "12.5"), ("y_flip", "height"), ("rotation", "standard"),
            ("foil", "cosmos"), ("intensity", "1.5"), ("glare", "0.25"),
            ("depth", "16"), ("compression", "fast"), ("quality", "90"), ("width", "500"), ("height", "0650"),
        ]
        let request = try RenderRequest(values: given)
        // `fit` and `scale` exclude each other, as `quality` and `lossless` do: every other
        // parameter differs from its default.
        #expect(request.values.map(\.name) == RenderRequest.parameters.map(\.name).filter { $0 != "fit" && $0 != "lossless" })
        #expect(request.values.first { $0.name == "height" }?.value == "650")
        #expect(request.values.first { $0.name == "tilt_x" }?.value == "8")
        #expect(request.values.first { $0.name == "crossfade" }?.value == "true")
        #expect(request.values.first { $0.name == "size" }?.value == "1000x1300")
        #expect(request.values.first { $0.name == "background" }?.value == "#1b1f2a")
        #expect(try RenderRequest(values: request.values.map { ($0.name, $0.value) }) == request)
        let fitted = try RenderRequest(values: [("fit", "1"), ("size", "300x400")])
        #expect(fitted.values.map { "\($0.name)=\($0.value)" } == ["size=300x400", "fit=true"])
    }

    @Test(arguments: [
        ("tilt_x", "91", "tilt_x must be between -90 and 90, e.g. 8, not 91"),
        ("tilt_x", "abc", "tilt_x must be a number between -90 and 90, e.g. 8, not \"abc\""),
        ("tilt_y", "nan", "tilt_y must be a finite number between -90 and 90, e.g. -6, not nan"),
        ("intensity", "2.5", "intensity must be between 0 and 2, e.g. 1, not 2.5"),
        ("glare", "nan", "glare must be a finite number between 0 and 1, e.g. 0.5, not nan"),
        ("foil", "chrome", "foil must be kira, rainbow, sparkle, cosmos, gold, etched or reverse, not \"chrome\""),
        ("flip", "1e308", "flip must be between -720 and 720, e.g. 180, not 1e+308"),
        ("axis", "z", "axis must be y, x or xy, not \"z\""),
        ("size", "16385x100", "size must be WIDTHxHEIGHT with each side 1...16384, e.g. 800x1000, not \"16385x100\""),
        ("background", "white", "background must be #RRGGBB (six hex digits, e.g. #1b1f2a) or transparent, not \"white\""),
        ("depth", "12", "depth must be 8 or 16, not \"12\""),
        ("crossfade", "maybe", "crossfade must be true or false, not \"maybe\""),
        ("art", "", "art must name a file, not be empty"),
        ("tilt", "3", "unknown parameter \"tilt\"; the parameters are art, mask, back, back_mask, foil_map, tilt_x, tilt_y, flip, axis, perspective, tilt_perspective, crossfade, size, background, scale, fit, shader, angle_strength, y_flip, rotation, foil, intensity, glare, depth, compression, quality, lossless, width or height"),
    ])
    func badValuesSayWhatIsValid(name: String, value: String, message: String) {
        #expect { try RenderRequest(values: [(name, value)]) } throws: { error in
            (error as? RequestError)?.description == message
        }
    }

    /// Checks between values name both, as each front end spells them.
    @Test func conflictsNameBothParameters() {
        #expect { try RenderRequest(values: [("fit", "true"), ("scale", "0.5"), ("size", "10x10")]) } throws: { error in
            (error as? RequestError)?.described(naming: { "--" + $0 }) == "give either --scale or --fit, not both"
        }
        #expect { try RenderRequest(values: [("fit", "true")]) } throws: { error in
            (error as? RequestError)?.description == "fit needs size (the default canvas already fits the card)"
        }
        #expect { try ShadeRequest(values: [("normal", "0,0,1"), ("tilt_x", "0")]) } throws: { error in
            (error as? RequestError)?.description == "give either normal or tilt_x/tilt_y, not both"
        }
        #expect { try AnimationRequest(values: [("preset", "seed002-flip"), ("loops", "2")]) } throws: { error in
            (error as? RequestError)?.description.hasPrefix("loops needs a looping preset") == true
        }
    }

    /// The request's frame is the renderer's frame of its scene, and `write(to:)` stores it as
    /// the request says.
    @Test func writeStoresTheRenderedFrame() throws {
        let path = "/tmp/kira-request-\(UInt64.random(in: 0...UInt64.max)).png"
        defer { unlink(path) }
        let request = try RenderRequest(values: [("tilt_x", "8"), ("flip", "30"), ("size", "200x260"), ("scale", "0.3")])
        try request.write(to: path, threads: 2)
        var expected = RGBAImage<UInt8>()
        var scene = try FrameScene(front: BuiltInCard.front, back: BuiltInCard.back, pose: CardPose(tiltX: 8, flip: 30), canvasSize: (200, 260))
        scene.cardScale = 0.3
        try FrameRenderer(threads: 1).render(scene, into: &expected)
        #expect(try PNGCodec.read(path) == .rgba8(expected))
    }

    /// Help mentions other parameters as `{name}`, spelled by each front end.
    @Test func helpSpellsOtherParameters() throws {
        let entry = try #require(RenderRequest.parameter(named: "angle_strength"))
        #expect(entry.help(naming: { "--" + $0 }).hasSuffix("(overrides --shader)."))
        #expect(entry.help.contains("{shader}"))
    }
}

/// Masks fit their art (FaceMap): another aspect ratio is refused naming both sizes, before
/// anything is shaded or written; one pixel of rounding is not another shape.
@Suite struct MaskShapeTests {
    @Test func aMaskOfAnotherShapeIsRefusedWithBothSizes() throws {
        var template = [CChar]("/tmp/kira-mask-XXXXXX".utf8CString)
        let directory = String(cString: mkdtemp(&template)!)
        defer { for name in ["art.png", "square.png", "rounded.png"] { unlink(directory + "/" + name) }; rmdir(directory) }
        try PNGCodec.write(try RGBAImage<UInt8>(width: 40, height: 56), to: directory + "/art.png")
        try PNGCodec.write(try RGBAImage<UInt8>(width: 40, height: 40), to: directory + "/square.png")
        try PNGCodec.write(try RGBAImage<UInt8>(width: 20, height: 29), to: directory + "/rounded.png")
        let shade = try ShadeRequest(values: [("art", directory + "/art.png"), ("mask", directory + "/square.png")])
        let error = #expect(throws: RequestError.self) { _ = try shade.prepare(writingTo: directory + "/out.png") }
        #expect(error?.parameter == "mask" && error?.reason.hasPrefix("is 40×40, the art 40×56") == true, "\(String(describing: error))")
        let rounded = try ShadeRequest(values: [("art", directory + "/art.png"), ("mask", directory + "/rounded.png")])
        #expect(try rounded.prepare(writingTo: directory + "/out.png").face.mask.width == 40)
        let render = try RenderRequest(values: [("art", directory + "/art.png"), ("back", directory + "/art.png"),
                                                ("back_mask", directory + "/square.png"), ("flip", "180")])
        let backError = #expect(throws: RequestError.self) { _ = try render.prepare(writingTo: directory + "/r.png") }
        #expect(backError?.parameter == "back_mask", "\(String(describing: backError))")
    }
}

/// `kira shade`'s values, refused by the request's own entries as every front end refuses them.
@Suite struct ShadeValueTests {
    @Test(arguments: [("tilt_x", "nan"), ("tilt_y", "inf"), ("tilt_x", "-inf"), ("tilt_x", "181"), ("tilt_x", "8\u{0}1"),
                      ("normal", "1,2"), ("normal", "0,0,0"), ("normal", "nan,1,1"), ("normal", "1,0\u{0}5,1"),
                      ("depth", "7"), ("angle_strength", "1e30"), ("shader", "glsl"), ("foil", "x\u{0}")])
    func aValueOutOfItsRangeIsRefusedNamingIt(name: String, value: String) {
        let error = #expect(throws: RequestError.self) { _ = try ShadeRequest(values: [(name, value)]) }
        #expect(error?.parameter == name, "\(String(describing: error))")
        #expect(error?.description.contains("\u{0}") == false, "a message shows a NUL escaped, never carries it")
    }
}
