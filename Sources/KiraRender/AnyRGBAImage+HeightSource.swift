import KiraImage
import KiraLaneJobs

extension Optional<AnyRGBAImage> {
    /// Calls `body` with this image's pixels as a height source (nil when there is no image),
    /// resampled through `columns`.
    func withHeightSource<R>(columns: MaskColumns?, _ body: (HeightSource?) -> R) -> R {
        guard let image = self, let columns else { return body(nil) }
        return columns.indices.withUnsafeBufferPointer { indices in
            func source(_ pixels: UnsafeRawBufferPointer) -> HeightSource {
                HeightSource(pixels: pixels.baseAddress!, width: image.width, height: image.height, bits: image.bitDepth,
                             columns: columns.isIdentity ? nil : indices.baseAddress!)
            }
            switch image {
            case .rgba8(let pixels): return pixels.channels.withUnsafeBytes { body(source($0)) }
            case .rgba16(let pixels): return pixels.channels.withUnsafeBytes { body(source($0)) }
            }
        }
    }
}
