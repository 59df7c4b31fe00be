import Foundation
import KiraPNG
import KiraTextureCache
import KiraFiles
import KiraImage
import KiraRender
import KiraTestSupport
import Testing

@Suite struct TextureCacheTests {
    /// Removed with its files when the test ends.
    let temporary: TemporaryDirectory
    var directory: String { temporary.path }

    init() throws {
        temporary = try TemporaryDirectory()
        for (index, name) in ["a", "b", "c"].enumerated() {
            var image = try RGBAImage<UInt8>(width: 10, height: 10)
            for i in image.channels.indices { image.channels[i] = UInt8((i * (index + 3)) % 256) }
            try PNGCodec.write(image, to: "\(directory)/\(name).png")
        }
    }

    @Test func decodesEachFileOnceAndHashesItsBytes() throws {
        let cache = TextureCache()
        let first = try cache.texture(at: directory + "/a.png")
        let again = try cache.texture(at: directory + "/a.png")
        #expect(cache.decodes == 1)
        #expect(first.image == again.image)
        #expect(first.hash == ContentHash.sha256(try FileIO.read(directory + "/a.png")))
        #expect(try cache.hash(of: directory + "/a.png") == first.hash)
        #expect(first.image == (try PNGCodec.read(directory + "/a.png")))
    }

    @Test func oneFileUnderSeveralNamesIsDecodedOnce() throws {
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.png", withDestinationPath: directory + "/b.png")
        let cache = TextureCache()
        let names = ["b.png", "./b.png", "link.png"].map { directory + "/" + $0 } + [directory + "//b.png"]
        let textures = try names.map { try cache.texture(at: $0) }
        #expect(cache.decodes == 1)
        #expect(textures.allSatisfy { $0.image == textures[0].image && $0.hash == textures[0].hash })
    }

    @Test func staysWithinItsBudget() throws {
        let cache = TextureCache(budget: 2 * 10 * 10 * 4)  // two of the 10×10 textures
        for name in ["a", "b", "c", "a"] { _ = try cache.texture(at: "\(directory)/\(name).png") }
        #expect(cache.heldBytes <= cache.budget)
        #expect(cache.decodes == 4)  // a was evicted by c, decoded again
        _ = try cache.texture(at: "\(directory)/a.png")
        #expect(cache.decodes == 4)
    }

    @Test func aMissingFileIsAnError() {
        #expect(throws: ImageFileError.self) { try TextureCache().texture(at: directory + "/none.png") }
    }
}

/// A texture is a regular file: a catalogue row whose art is a FIFO with no writer, or a link to
/// a device, fails at once instead of holding the whole batch or filling its memory.
@Suite struct TextureFileKindTests {
    @Test func aFIFOIsRefusedAtOnce() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/fifo.png"
        try FIFO.make(path)
        let outcome = Locked<[String]>([])
        let seconds = FIFO.timing(unblocking: path) {
            let cache = TextureCache()
            for read in [{ _ = try cache.texture(at: path, role: .color) }, { _ = try cache.hash(of: path) }] {
                do {
                    try read()
                    outcome.withLock { $0.append("read") }
                } catch {
                    outcome.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(seconds < 2, "waited \(seconds) s on a FIFO with no writer")
        for reason in outcome.withLock({ $0 }) {
            #expect(reason.contains("fifo.png") && reason.contains("not a regular file"), "\(reason)")
        }
    }

    @Test(arguments: ["/dev/zero", "/dev/urandom", "/dev/null"])
    func aLinkToADeviceIsRefusedUnread(device: String) throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/art.png"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: device)
        let cache = TextureCache()
        #expect(throws: ImageFileError.self) { try cache.texture(at: path) }
        #expect(throws: ImageFileError.self) { try cache.hash(of: path) }
    }
}
