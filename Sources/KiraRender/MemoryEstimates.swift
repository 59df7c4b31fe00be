import KiraImage

// What the renderers hold at their peak, so that a caller can check its memory budget before it
// starts. Small scratch (rows, noise tables) is left out: it is a few MB at most.

extension FrameScene {
    /// The bytes of the canvas at `channelBytes` bytes a channel.
    public func canvasBytes(channelBytes: Int) -> Int {
        AnyRGBAImage.byteCount(width: canvasWidth, height: canvasHeight, channelBytes: channelBytes)
    }

    /// The bytes of one shading of each face (the front's and the back's art size).
    public func shadedFaceBytes(channelBytes: Int) -> Int {
        AnyRGBAImage.byteCount(width: front.art.width, height: front.art.height, channelBytes: channelBytes)
            .addingSaturated(AnyRGBAImage.byteCount(width: back.art.width, height: back.art.height, channelBytes: channelBytes))
    }
}

extension FrameRenderer {
    /// The peak of rendering `frames` scenes like `scene` at once: a canvas per frame and each
    /// side shaded once per frame (a sweep's stack). Saturates at `Int.max`, over any budget:
    /// the scene's sizes are variables a caller may have set to anything.
    public static func estimatedPeakBytes(for scene: FrameScene, channelBytes: Int, frames: Int = 1) -> Int {
        scene.canvasBytes(channelBytes: channelBytes).addingSaturated(scene.shadedFaceBytes(channelBytes: channelBytes))
            .multipliedSaturated(by: max(0, frames))
    }
}

extension Int {
    /// `self + other` of two byte counts (not negative), or `Int.max` when it overflows.
    package func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? Int.max : sum
    }

    /// `self × factor` of a byte count and a count (not negative), or `Int.max` when it overflows.
    package func multipliedSaturated(by factor: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        return overflow ? Int.max : product
    }
}
