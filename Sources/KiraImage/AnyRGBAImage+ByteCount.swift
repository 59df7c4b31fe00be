import KiraFiles

extension AnyRGBAImage {
    /// The bytes its channels take.
    public var byteCount: Int {
        switch self {
        case .rgba8(let image): MemoryBudget.imageBytes(width: image.width, height: image.height, channelBytes: 1)
        case .rgba16(let image): MemoryBudget.imageBytes(width: image.width, height: image.height, channelBytes: 2)
        }
    }
}
