import KiraRender

extension FramePipeline {
    /// The peak of ``render(_:to:)`` for scenes like `scene` in batches of `batchSize`: the
    /// batch being rendered (canvases and shaded faces), the batches being encoded meanwhile
    /// (canvases) and the last frame of the batch before them (a canvas), and what the encoders
    /// hold, at most a canvas a frame (zlib's worst case is barely over the raw size).
    /// Saturates at `Int.max`, over any budget, as the renderer's estimate does: a batch size from
    /// a caller may be anything.
    public static func estimatedPeakBytes(for scene: FrameScene, channelBytes: Int, batchSize: Int) -> Int {
        let canvases = (2 * encodingBatches).multipliedSaturated(by: max(0, batchSize)).addingSaturated(1)
        return FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: channelBytes, frames: batchSize)
            .addingSaturated(canvases.multipliedSaturated(by: scene.canvasBytes(channelBytes: channelBytes)))
    }
}
