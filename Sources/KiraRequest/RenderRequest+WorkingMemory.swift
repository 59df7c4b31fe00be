import KiraFiles
import KiraRender

extension RenderRequest {
    /// The memory a render of `scene` adds when its card's textures are held already (a server's
    /// cards): ``estimatedPeakBytes(for:)`` without the card, plus the encoded file twice — the
    /// encoder's bytes and a buffer they are copied into to be sent, each at most the raw canvas
    /// (pixels of noise: a 77 MB PNG of a 4096×4096 16-bit canvas, 128 MiB raw).
    public func estimatedWorkingBytes(for scene: FrameScene, residentCard card: LoadedCard) -> Int {
        let fileBytes = MemoryBudget.imageBytes(width: scene.canvasWidth, height: scene.canvasHeight, channelBytes: output.channelBytes)
        return estimatedPeakBytes(for: scene) - card.byteCount + 2 * fileBytes
    }
}
