import Foundation
import KiraPNG

/// Files handed in as PNGs that are not usable ones, each kind under a name of its own.
public enum BadPNGFiles {
    /// The files ``write(into:good:)`` makes.
    public static let names = ["notes.txt", "empty.png", "random.png", "truncated.png", "badcrc.png", "huge.png", "zero.png"]

    /// Writes each of ``names`` into `directory`, the truncated and the corrupt one cut from the PNG `good`.
    public static func write(into directory: String, good: [UInt8]) throws {
        func put(_ name: String, _ bytes: [UInt8]) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        try put("notes.txt", Array("just text\n".utf8))
        try put("empty.png", [])
        var state: UInt32 = 12345
        try put("random.png", (0..<4096).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(state >> 24)
        })
        try put("truncated.png", Array(good.prefix(good.count / 2)))
        var corrupt = good
        corrupt[29] ^= 0x55  // inside the IHDR CRC
        try put("badcrc.png", corrupt)
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func header(_ w: UInt32, _ h: UInt32) -> [UInt8] {
            signature + PNGFixture.chunk("IHDR", PNGFixture.bigEndian(w) + PNGFixture.bigEndian(h) + [8, 6, 0, 0, 0])
                + PNGFixture.chunk("IEND", [])
        }
        try put("huge.png", header(100_000, 100_000))
        try put("zero.png", header(0, 0))
    }
}
