import KiraGeometry

extension FrameScene {
    /// The map from the card's view (card pixels) to the canvas: the card centred, at
    /// ``cardScale`` about its centre. At scale 1 the card sits on whole pixels (``cardOrigin``),
    /// so an unscaled render samples the shaded face without resampling it.
    var cardToCanvas: Homography {
        guard cardScale != 1 else {
            return Homography.translation(SIMD2(Double(cardOrigin.x), Double(cardOrigin.y)))
        }
        let card = SIMD2(Double(front.art.width), Double(front.art.height))
        let canvas = SIMD2(Double(canvasWidth), Double(canvasHeight))
        let offset = canvas / 2 - card / 2 * cardScale
        // Row vectors (p · M), as every Homography here: the translation is the last row.
        return Homography(rows: SIMD3(cardScale, 0, 0), SIMD3(0, cardScale, 0), SIMD3(offset.x, offset.y, 1))
    }

    /// The scale at which the card, tilted by up to ±45° (the default canvas's room), fits a
    /// canvas of `width × height` with a pixel to spare on each side: at most 1.
    public static func fittingScale(cardWidth: Int, cardHeight: Int, canvasWidth: Int, canvasHeight: Int) -> Double {
        // The default canvas is the tilted card's extent plus at least a pixel each side.
        let room = defaultCanvasSize(cardWidth: cardWidth, cardHeight: cardHeight)
        return max(0.01, min(1, Double(canvasWidth - 2) / Double(room.width - 2), Double(canvasHeight - 2) / Double(room.height - 2)))
    }
}
