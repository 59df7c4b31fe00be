// libFuzzer entry point for Kira's input paths. Built and run by Tests/Fuzz/run-fuzzer; not part of
// the package's build.
import KiraArguments
import KiraFiles
import KiraImage
import KiraPNG

/// The first byte chooses the target; the rest is its input.
/// - 0, 1: PNG decoding (the bytes as a file), with the standard limits and with tiny ones;
/// - 2: the command-line value parsers (the bytes as UTF-8 text).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
    switch data[0] % 3 {
    case 0:
        decode(input, limits: .standard)
    case 1:
        decode(input, limits: PNGCodec.Limits(maxSide: 64, maxPixels: 1024))
    default:
        let text = String(decoding: input, as: UTF8.self)
        if let v = ArgumentValues.vector3(text) { precondition(v.x.isNaN || v.x == v.x) }
        if let size = ArgumentValues.size(text) { precondition(size.width >= 1 && size.height >= 1) }
        if let color = ArgumentValues.hexColor(text) { precondition(color.max() <= 1 && color.min() >= 0) }
        if let bytes = ArgumentValues.byteCount(text) { precondition(bytes >= 0) }
        let path = input
        precondition(PathBytes.bytes(PathBytes.string(bytes: path)) == path)
    }
    return 0
}

private func decode(_ bytes: [UInt8], limits: PNGCodec.Limits) {
    guard let image = try? PNGCodec.decode(bytes, name: "fuzz", limits: limits) else { return }
    // What decodes must be self-consistent and re-encodable.
    precondition(image.width > 0 && image.height > 0 && image.width * image.height <= limits.maxPixels)
    switch image {
    case .rgba8(let i): precondition(i.channels.count == i.width * i.height * 4)
    case .rgba16(let i): precondition(i.channels.count == i.width * i.height * 4)
    }
}
