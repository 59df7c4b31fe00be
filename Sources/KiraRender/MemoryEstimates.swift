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
            + AnyRGBAImage.byteCount(width: back.art.width, height: back.art.height, channelBytes: channelBytes)
    }
}

extension FrameRenderer {
    /// The peak of rendering `frames` scenes like `scene` at once: a canvas per frame and each
    /// side shaded once per frame (a sweep's stack).
    public static func estimatedPeakBytes(for scene: FrameScene, channelBytes: Int, frames: Int = 1) -> Int {
        frames * (scene.canvasBytes(channelBytes: channelBytes) + scene.shadedFaceBytes(channelBytes: channelBytes))
    }
}
