#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import KiraFiles
import KiraImage

/// What a PNG file declares about its image (its IHDR chunk), read before anything is decoded,
/// so that the memory decoding takes can be checked against a ``/KiraFiles/MemoryBudget`` first.
public struct PNGHeader: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Bits per sample as stored: 1, 2, 4, 8 or 16.
    public var bitDepth: Int

    /// The header at the start of `bytes` (signature, then IHDR), or nil when they do not start
    /// like a PNG (decoding then says what is wrong).
    public init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        let head = Array(bytes.prefix(25))
        guard head.count == 25, head.starts(with: PNGChunks.signature), head[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> Int { head[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        (width, height, bitDepth) = (word(16), word(20), Int(head[24]))
    }

    /// Bytes of the decoded image: RGBA, 16 bits a channel for 16-bit files, else 8.
    public var decodedBytes: Int {
        MemoryBudget.imageBytes(width: width, height: height, channelBytes: bitDepth == 16 ? 2 : 1)
    }

    /// The header of the PNG file at `path`, and the file's size, from its first bytes alone; nil
    /// for a stream (standard input, a pipe or FIFO: its bytes can be read only once, and are
    /// checked as they are decoded) or a file that does not start like a PNG.
    ///
    /// - Throws: ``/KiraFiles/ImageFileError`` for a file that cannot be opened.
    public static func read(_ path: String) throws(ImageFileError) -> (header: PNGHeader, fileBytes: Int)? {
        if path == FileIO.standardStream { return nil }
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard fd >= 0 else { throw FileIO.systemError(path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var head = [UInt8](repeating: 0, count: 25)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 25, 0) }
        guard count == 25, let header = PNGHeader(bytes: head) else { return nil }
        return (header, Int(status.st_size))
    }

    /// The peak of reading and decoding the PNG files at `paths` at once: each file's bytes and
    /// its decoded image (a file counted once however often it is named). Streams and files that
    /// are not PNGs count nothing here (their bytes are bounded as they are read).
    public static func decodingBytes(_ paths: [String]) throws(ImageFileError) -> Int {
        var total = 0
        for path in Set(paths) {
            // Saturating: a header may claim 2³²−1 pixels a side.
            if let (header, fileBytes) = try read(path) { total = MemoryBudget.sum(total, MemoryBudget.sum(fileBytes, header.decodedBytes)) }
        }
        return total
    }
}
