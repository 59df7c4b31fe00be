import KiraFiles
import KiraImage

// What the renderers hold at their peak, so that a command can check a ``/KiraFiles/MemoryBudget`` before
// it starts. Small scratch (rows, noise tables) is left out: it is a few MB at most.

extension FrameScene {
    /// The bytes of the canvas at `channelBytes` bytes a channel.
    public func canvasBytes(channelBytes: Int) -> Int {
        MemoryBudget.imageBytes(width: canvasWidth, height: canvasHeight, channelBytes: channelBytes)
    }

    /// The bytes of one shading of each face (the front's and the back's art size).
    public func shadedFaceBytes(channelBytes: Int) -> Int {
        MemoryBudget.imageBytes(width: front.art.width, height: front.art.height, channelBytes: channelBytes)
            + MemoryBudget.imageBytes(width: back.art.width, height: back.art.height, channelBytes: channelBytes)
    }
}

extension FrameRenderer {
    /// The peak of rendering `frames` scenes like `scene` at once: a canvas per frame and each
    /// side shaded once per frame (a sweep's stack).
    public static func estimatedPeakBytes(for scene: FrameScene, channelBytes: Int, frames: Int = 1) -> Int {
        frames * (scene.canvasBytes(channelBytes: channelBytes) + scene.shadedFaceBytes(channelBytes: channelBytes))
    }
}

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
