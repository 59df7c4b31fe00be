import KiraFiles
import KiraFormats
import KiraGeometry
import KiraImage
import KiraRender
import KiraShader

/// Every foil on one sheet: a column per foil, in `FoilRegistry`'s order, and a row per tilt
/// of the card (three), as `FrameRenderer` draws it on screen.
public enum FoilGallery {
    /// The tilts (about x, about y, in degrees) of the three rows: up and to the left, a little off
    /// rest, down and to the right, so that each foil shows how it moves.
    public static let tilts: [SIMD2<Double>] = [SIMD2(8, -12), SIMD2(-2, 3), SIMD2(-8, 12)]
    /// The canvas around the card, as a share of its size on either side (room for the tilts).
    static let margin = 0.08

    /// The sheet for `front` and `back` with `parameters` (whose foil is replaced by each foil in
    /// turn), cells `cellWidth` pixels wide.
    public static func render(front: CardFace, back: CardFace, parameters: KiraParameters, cellWidth: Int = 240,
                              renderer: FrameRenderer = FrameRenderer()) throws -> RGBAImage<UInt8> {
        // Cell (tilt, foil); each foil's tilts are rendered together, one sweep per side.
        var cells = [[RGBAImage<UInt8>]](repeating: [], count: tilts.count)
        var frames: [RGBAImage<UInt8>] = []
        for foil in Foil.all {
            var look = parameters
            look.foil = foil
            let scenes = try tilts.map { tilt throws(RenderError) in try scene(front: front, back: back, tilt: tilt, parameters: look) }
            try renderer.render(scenes, into: &frames)
            let size = ContactSheet.cellSize(frameWidth: frames[0].width, frameHeight: frames[0].height, cellWidth: cellWidth)
            for (row, frame) in frames.enumerated() {
                cells[row].append(try frame.lanczosScaled(width: size.imageWidth, height: size.imageHeight))
            }
        }
        return try ContactSheet.make(frames: cells.joined().map { (0, $0) }, columns: Foil.all.count, cellWidth: cellWidth,
                                 timed: false)
    }

    /// The card at `tilt` on a transparent canvas a little larger than it; throws when that is
    /// over the image limits.
    static func scene(front: CardFace, back: CardFace, tilt: SIMD2<Double>, parameters: KiraParameters) throws(RenderError) -> FrameScene {
        let width = front.art.width, height = front.art.height
        let room = { (side: Int) in side + 2 * Int((Double(side) * margin).rounded()) }
        return try FrameScene(front: front, back: back, pose: CardPose(tiltX: tilt.x, tiltY: tilt.y),
                              canvasSize: (room(width), room(height)), parameters: parameters)
    }

    /// The most bytes ``render(front:back:parameters:cellWidth:renderer:)`` holds at once: a row's
    /// frames (canvases and shaded faces) and the sheet's cells. Throws what the render would
    /// refuse first: a card whose canvas is over the image limits.
    public static func estimatedPeakBytes(front: CardFace, back: CardFace, cellWidth: Int = 240) throws(RenderError) -> Int {
        let scene = try scene(front: front, back: back, tilt: .zero, parameters: .seed)
        let cell = ContactSheet.cellSize(frameWidth: scene.canvasWidth, frameHeight: scene.canvasHeight, cellWidth: cellWidth)
        let cells = Foil.all.count * tilts.count
        return FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: 1, frames: tilts.count)
            + 2 * cells * MemoryBudget.imageBytes(width: cellWidth, height: cell.cellHeight, channelBytes: 1)
    }
}
