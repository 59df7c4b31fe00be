import KiraAnimation
import KiraGeometry
import KiraRender
import KiraRequest
import KiraSamples
import Testing

/// `fit` fills the canvas with what the card draws; a given size that crops the card says so.
@Suite struct CanvasPlacementTests {
    static let card = LoadedCard(front: FaceInput(face: BuiltInCard.front), back: FaceInput(face: BuiltInCard.back))

    /// How much of the canvas's width and height the drawn card spans, and whether it stays on it.
    static func coverage(_ scenes: [FrameScene]) -> (width: Double, height: Double, cropped: Int) {
        let bounds = scenes.compactMap { scene in scene.drawnExtent.map { scene.canvasBounds(of: $0) } }
            .reduce(nil as DrawnExtent?) { $0?.union($1) ?? $1 }!
        let canvas = SIMD2(Double(scenes[0].canvasWidth), Double(scenes[0].canvasHeight))
        return (bounds.size.x / canvas.x, bounds.size.y / canvas.y, scenes.filter(\.isCropped).count)
    }

    @Test(arguments: [
        (CardPose(), "800x1000"), (CardPose(tiltX: 10, tiltY: 10), "1080x1350"), (CardPose(tiltX: -30, tiltY: 45), "800x1000"),
        (CardPose(tiltX: 6, tiltY: -9, flip: 60), "300x400"), (CardPose(flip: 160, flipAxis: .diagonal), "1200x600"),
        (CardPose(tiltX: 8), "40x50"),
    ])
    func aFittedStillFillsTheCanvas(pose: CardPose, size: String) throws {
        var request = try RenderRequest(values: [("fit", "true"), ("size", size)])
        request.pose = pose
        let scene = try request.scene(for: Self.card)
        let fill = Self.coverage([scene])
        #expect(fill.cropped == 0)
        // A margin of 4% of the shorter side on every side: about 92% on the tighter axis.
        #expect(max(fill.width, fill.height) >= 0.88, "spans \(fill)")
        #expect(fill.width <= 1 && fill.height <= 1, "spans \(fill)")
    }

    /// Before, `fit` left room for a ±45° tilt: an 800×1000 canvas showed a card 52% as wide.
    @Test func aFittedStillAtRestFillsTheCanvasWidth() throws {
        let scene = try RenderRequest(values: [("fit", "true"), ("size", "800x1000"), ("tilt_x", "10")]).scene(for: Self.card)
        #expect(Self.coverage([scene]).width > 0.9)
        #expect(scene.cardScale > 1, "scale \(scene.cardScale)")  // the 630×880 card grows to fill it
    }

    @Test(arguments: [AnimationPreset.showcase, .seed003TiltFlip, .seed002Flip, .seed002Spin])
    func aFittedAnimationFillsTheCanvasOverAllItsFrames(preset: AnimationPreset) throws {
        let request = try AnimationRequest(values: [("preset", preset.rawValue), ("fps", "12"), ("size", "1080x1350"), ("fit", "true")])
        let drag = try request.loadDrag()
        let scenes = try request.scenes(for: try request.timing(drag: drag), card: Self.card, drag: drag)
        let fill = Self.coverage(scenes)
        #expect(fill.cropped == 0, "\(preset): \(fill.cropped) frames cropped")
        #expect(max(fill.width, fill.height) >= 0.88 && fill.width <= 1 && fill.height <= 1, "\(preset): spans \(fill)")
        // One placement for the whole animation.
        #expect(Set(scenes.map(\.cardScale)).count == 1)
        #expect(request.cropNote(for: scenes) == nil)
    }

    @Test func aGivenSizeThatCropsSaysSo() throws {
        let small = try RenderRequest(values: [("size", "500x700"), ("tilt_x", "8")])
        let note = try #require(small.notes(for: try small.scene(for: Self.card)).first)
        #expect(note == "the card reaches beyond the 500×700 canvas and is cropped (give {fit} to fill the canvas with the whole card, or {scale})")
        for values in [[("size", "500x700"), ("fit", "true")], [("size", "500x700"), ("scale", "0.5")], [("size", "800x1000")], []] {
            let request = try RenderRequest(values: values + [("tilt_x", "8")])
            #expect(request.notes(for: try request.scene(for: Self.card)).isEmpty, "\(values)")
        }
        let showcase = try AnimationRequest(values: [("preset", "showcase"), ("fps", "12"), ("size", "700x950")])
        let drag = try showcase.loadDrag()
        let scenes = try showcase.scenes(for: try showcase.timing(drag: drag), card: Self.card, drag: drag)
        let cropped = scenes.filter(\.isCropped).count
        #expect(cropped > 0 && cropped < scenes.count)
        #expect(showcase.cropNote(for: scenes)
                == "the card in \(cropped) of \(scenes.count) frames reaches beyond the 700×950 canvas and is cropped (give {fit} to fill the canvas with the whole card, or {scale})")
    }
}
