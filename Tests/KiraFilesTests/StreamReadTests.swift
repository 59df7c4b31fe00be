#if canImport(Glibc)
import Glibc
#endif
import Foundation
import KiraFiles
import KiraTestSupport
import Testing

/// Streams are read up to their limit and no further; regular-file reads refuse anything else at once.
@Suite struct StreamReadTests {
    /// A stream of `/dev/zero` is refused one byte past the limit; under it, a stream is read whole.
    @Test func aStreamIsReadToItsLimit() throws {
        #expect { try FileIO.read("/dev/zero", limit: 3 << 20, limitName: "the most a test takes") } throws: { error in
            (error as? ImageFileError)?.reason == "larger than 3 MiB, the most a test takes"
        }
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/fifo"
        try FIFO.make(path)
        // Pieces of 1 MiB and a rest: the bytes come back in order, whole.
        let bytes = (0..<((5 << 20) + 123)).map { UInt8(truncatingIfNeeded: $0 * 31 + $0 >> 12) }
        Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }.start()
        #expect(try FileIO.read(path, limit: 6 << 20) == bytes)
    }

    @Test func aRegularFileReadRefusesAFIFOAtOnce() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/fifo.png"
        try FIFO.make(path)
        let refused = Locked(false)
        let seconds = FIFO.timing(unblocking: path) {
            do { _ = try FileIO.readRegular(path) } catch { refused.withLock { $0 = "\(error)".contains("not a regular file") } }
        }
        #expect(seconds < 2 && refused.withLock { $0 }, "\(seconds) s")
        #expect(throws: ImageFileError.self) { try FileIO.readRegular("/dev/zero") }
        #expect(throws: ImageFileError.self) { try FileIO.readRegular(temporary.path) }
    }
}
