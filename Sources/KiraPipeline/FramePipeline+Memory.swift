import KiraRender

extension FramePipeline {
    /// The peak of ``render(_:to:)`` for scenes like `scene` in batches of `batchSize`: the
    /// batch being rendered (canvases and shaded faces), the batches being encoded meanwhile
    /// (canvases) and the last frame of the batch before them (a canvas), and what the encoders
    /// hold, at most a canvas a frame (zlib's worst case is barely over the raw size).
    public static func estimatedPeakBytes(for scene: FrameScene, channelBytes: Int, batchSize: Int) -> Int {
        FrameRenderer.estimatedPeakBytes(for: scene, channelBytes: channelBytes, frames: batchSize)
            + ((2 * encodingBatches) * batchSize + 1) * scene.canvasBytes(channelBytes: channelBytes)
    }
}
