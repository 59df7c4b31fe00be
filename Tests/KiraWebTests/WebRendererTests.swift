import KiraGeometry
import KiraImage
import KiraRender
import KiraRequest
import KiraShader
import KiraWeb
import Testing

/// What the browser's module draws is what `kira render` and `kira shade` draw for the same
/// values: the module's mapping of its values onto the renderers, checked here on the host (the
/// browser test, Tests/Browser/web-card.py, checks the WebAssembly build against the command).
@Suite struct WebRendererTests {
    /// A request's frame as `kira render` makes it, 8-bit.
    static func expected(_ values: [(String, String)]) throws -> RGBAImage<UInt8> {
        let request = try RenderRequest(values: values)
        let card = try request.card.load()
        guard case .rgba8(let image) = try request.render(try request.scene(for: card), with: FrameRenderer(threads: 2)) else {
            throw RenderError.emptyImage("8-bit frame")
        }
        return image
    }

    @Test func framesAreKiraRendersFrames() throws {
        let web = WebRenderer(threads: 2)
        let cases: [(values: [(String, String)], pose: CardPose, crossfade: Bool, size: (width: Int, height: Int)?, scale: Double?,
                     fit: Bool, background: FrameBackground, foil: Foil, intensity: Float, glare: Float)] = [
            ([("tilt_x", "8"), ("tilt_y", "-14"), ("size", "300x400")], CardPose(tiltX: 8, tiltY: -14), false, (300, 400), nil, false,
             .transparent, .kira, 1, 0),
            ([("flip", "180"), ("tilt_y", "6"), ("scale", "0.3"), ("foil", "cosmos"), ("glare", "0.5")], CardPose(tiltY: 6, flip: 180), false,
             nil, 0.3, false, .transparent, Foil(named: "cosmos")!, 1, 0.5),
            ([("flip", "90"), ("size", "200x250"), ("fit", "true"), ("background", "#1b1f2a"), ("axis", "x")],
             CardPose(flip: 90, flipAxis: .x), false, (200, 250), nil, true, FrameBackground(rgb: 0x1b1f2a), .kira, 1, 0),
            ([("flip", "60"), ("crossfade", "true"), ("size", "240x300"), ("fit", "true"), ("perspective", "2"),
              ("tilt_perspective", "0.5"), ("foil", "etched"), ("intensity", "1.5")],
             CardPose(flip: 60, flipPerspective: 2, tiltPerspective: 0.5), true, (240, 300), nil, true, .transparent,
             Foil(named: "etched")!, 1.5, 0),
        ]
        for c in cases {
            var parameters = KiraParameters.seed
            parameters.foil = c.foil
            parameters.intensity = c.intensity
            parameters.glare = c.glare
            try web.render(pose: c.pose, crossfade: c.crossfade, size: c.size, scale: c.scale, fit: c.fit,
                           background: c.background, parameters: parameters)
            #expect(web.image == (try Self.expected(c.values)), "\(c.values)")
        }
    }

    @Test func facesAreKiraShadesFaces() throws {
        let web = WebRenderer(threads: 2)
        for (back, foil) in [(false, "kira"), (true, "sparkle")] {
            var parameters = KiraParameters.seed
            parameters.foil = Foil(named: foil)!
            try web.shade(tiltX: -8, tiltY: 10, back: back, parameters: parameters)
            var request = try ShadeRequest(values: [("tilt_x", "-8"), ("tilt_y", "10"), ("foil", foil)] + (back ? [("back_face", "true")] : []))
            request.output.depth = 8
            let expected = try request.shade(try request.face().face, with: ShadeRenderer(threads: 2))
            #expect(AnyRGBAImage.rgba8(web.image) == expected, "back \(back), \(foil)")
        }
    }

    @Test func badValuesAreRefusedWithAMessage() {
        let web = WebRenderer()
        #expect(throws: WebRenderError.self) {
            try web.render(pose: CardPose(), crossfade: false, size: nil, scale: nil, fit: true, background: .transparent, parameters: .seed)
        }
        #expect(throws: WebRenderError.self) {
            try web.render(pose: CardPose(), crossfade: false, size: (16384, 16384), scale: nil, fit: false, background: .transparent,
                           parameters: .seed)
        }
        var loud = KiraParameters.seed
        loud.intensity = 3
        #expect(throws: WebRenderError.self) { try web.shade(tiltX: 0, tiltY: 0, back: false, parameters: loud) }
    }

    /// `#RRGGBB` reads as the core's colour for 0xRRGGBB.
    @Test func backgroundsReadAlike() throws {
        for rgb: UInt32 in [0x000000, 0xffffff, 0x1b1f2a, 0xf3efe6, 0x7f8081] {
            let hex = "#" + String(rgb, radix: 16).leftPadded(to: 6)
            let request = try RenderRequest(values: [("background", hex)])
            #expect(request.canvas.background == FrameBackground(rgb: rgb), "\(hex)")
        }
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
