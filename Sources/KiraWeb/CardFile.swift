import KiraImage
import KiraRender

/// A card's faces as Kira renders them, in one file that a browser reads without decoding any
/// image: each face's art, mask and foil map as raw RGBA, after Kira has decoded the PNGs,
/// converted their colour to sRGB and fitted the masks (what `kira render` would draw with).
///
/// The layout, little-endian: the magic `KIRACARD`, the version (a `UInt32`, 1), then six entries
/// of 12 bytes (front art, mask, foil map, then the back's), each the channel depth (a `UInt8`: 8,
/// 16, 0 for none, or 1 for a foil map that is its face's art), three zero bytes, and the width and
/// height (`UInt32`); then the pixels of each image present, in that order (16-bit channels
/// little-endian). On disk and on the wire the file is gzip-compressed (`kira card`, `kira serve`),
/// which a browser's `DecompressionStream` undoes.
public enum CardFile {
    /// The magic bytes a card file starts with.
    public static let magic: [UInt8] = Array("KIRACARD".utf8)
    /// The layout's version.
    public static let version: UInt32 = 1
    static let headerBytes = 8 + 4 + 6 * 12
    static let sameAsArt: UInt8 = 1

    /// The file's bytes (before compression) for the faces `front` and `back`.
    public static func encode(front: CardFace, back: CardFace) -> [UInt8] {
        let images = [front.art, front.mask, front.foilMap, back.art, back.mask, back.foilMap]
        let sameAsArt = [false, false, front.foilMap.map { $0.sharesBuffer(with: front.art) } ?? false,
                         false, false, back.foilMap.map { $0.sharesBuffer(with: back.art) } ?? false]
        var bytes = magic
        bytes.reserveCapacity(headerBytes + images.reduce(0) { $0 + ($1?.byteCount ?? 0) })
        append(version, to: &bytes)
        for (image, same) in zip(images, sameAsArt) {
            bytes.append(same ? Self.sameAsArt : UInt8(image?.bitDepth ?? 0))
            bytes += [0, 0, 0]
            append(UInt32(image?.width ?? 0), to: &bytes)
            append(UInt32(image?.height ?? 0), to: &bytes)
        }
        for (image, same) in zip(images, sameAsArt) where !same {
            switch image {
            case .rgba8(let image)?: bytes += image.channels
            case .rgba16(let image)?:
                for channel in image.channels { bytes += [UInt8(truncatingIfNeeded: channel), UInt8(channel >> 8)] }
            case nil: break
            }
        }
        return bytes
    }

    /// The faces in `bytes` (a whole file, uncompressed), or why they cannot be read.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(CardFileError) -> (front: CardFace, back: CardFace) {
        guard bytes.count >= headerBytes, bytes.prefix(8).elementsEqual(magic) else {
            throw .notACardFile
        }
        guard readUInt32(bytes, at: 8) == version else { throw .version(readUInt32(bytes, at: 8)) }
        var offset = headerBytes
        var images: [AnyRGBAImage?] = []
        for entry in 0..<6 {
            let at = 12 + entry * 12
            let depth = bytes[at]
            let width = Int(readUInt32(bytes, at: at + 4)), height = Int(readUInt32(bytes, at: at + 8))
            switch depth {
            case 0:
                images.append(nil)
            case sameAsArt:
                guard entry % 3 == 2 else { throw .malformed("entry \(entry) cannot repeat its art") }
                images.append(images[entry - 2])
            case 8, 16:
                let limits = ImageLimits.standard
                guard (1...limits.maxSide).contains(width), (1...limits.maxSide).contains(height) else {
                    throw .malformed("entry \(entry) is \(width)×\(height), beyond 1...\(limits.maxSide) a side")
                }
                let count = width * height * 4, size = count * Int(depth) / 8
                guard offset + size <= bytes.count else { throw .malformed("the file ends inside entry \(entry)") }
                let data = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + size)])
                // The size was checked above, and the count is the size's: the images' own checks
                // cannot fail here.
                if depth == 8 {
                    images.append(.rgba8(RGBAImage(checkedWidth: width, height: height, channels: Array(data))))
                } else {
                    let channels = [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
                        for i in 0..<count { buffer[i] = UInt16(data[2 * i]) | UInt16(data[2 * i + 1]) << 8 }
                        initialized = count
                    }
                    images.append(.rgba16(RGBAImage(checkedWidth: width, height: height, channels: channels)))
                }
                offset += size
            default:
                throw .malformed("entry \(entry) has a channel depth of \(depth)")
            }
        }
        guard offset == bytes.count else { throw .malformed("\(bytes.count - offset) bytes follow the last image") }
        func face(_ first: Int) throws(CardFileError) -> CardFace {
            guard let art = images[first], let mask = images[first + 1] else {
                throw .malformed("a face has no art or no mask")
            }
            do {
                return try CardFace(art: art, mask: mask, foilMap: images[first + 2])
            } catch {
                throw .malformed("\(first == 0 ? "the front" : "the back"): \(error)")
            }
        }
        return (try face(0), try face(3))
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }
}

/// Why a card file cannot be read.
public enum CardFileError: Error, Equatable, CustomStringConvertible {
    /// It does not start with ``CardFile/magic``.
    case notACardFile
    /// It is of another layout version.
    case version(UInt32)
    /// Its header and its size disagree.
    case malformed(String)

    public var description: String {
        switch self {
        case .notACardFile: "not a Kira card file (they start with KIRACARD once decompressed; kira card writes them)"
        case .version(let version): "a card file of version \(version); this Kira reads version \(CardFile.version)"
        case .malformed(let reason): "a damaged card file: \(reason)"
        }
    }
}
