#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
@testable import KiraCatalogue
import KiraFiles
import KiraTestSupport
import Testing

/// A manifest may be a stream (`kira batch <(generate)`, a link to a device): it is read up to
/// the 64 MiB limit and no further.
@Suite struct ManifestStreamTests {
    static let columns: Set<String> = ["output", "art", "tilt_x"]

    static func read(_ path: String) throws(ManifestError) -> Manifest {
        try Manifest.read(path, columns: columns, required: "output")
    }

    /// A writer that goes on past the limit: the reader stops one byte past it, so the writer gets
    /// little further (the pipe's buffer, a piece) before the pipe breaks.
    @Test func aLongStreamIsReadUpToTheLimitAndNoFurther() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/endless.csv"
        try FIFO.make(path)
        let written = Locked(0)
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            let header = Array("output,tilt_x\n".utf8), row = Array(String(repeating: "out/a.png,1\n", count: 5000).utf8)
            _ = header.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            // 16 MiB past the limit, then the end: a reader that reads on to it is caught.
            while written.withLock({ $0 }) < Manifest.maxSize + (16 << 20) {
                let n = row.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                written.withLock { $0 += n }
            }
        }
        // A writer to a closed pipe gets EPIPE rather than SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        writer.start()
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            _ = try Self.read(path)
            Issue.record("an endless manifest was read")
        } catch {
            #expect(error.reason.contains("larger than 64 MiB"), "\(error)")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // The writer's last write fails once the reader is gone.
        while !writer.isFinished { usleep(10_000) }
        let total = written.withLock { $0 }
        #expect(total <= Manifest.maxSize + (4 << 20), "the writer got \(total) bytes into the manifest (in \(seconds) s)")
    }

    @Test func aLinkToDevZeroIsRefusedAtTheLimit() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/z.csv"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        #expect { try Self.read(path) } throws: { error in
            (error as? ManifestError)?.reason == "larger than 64 MiB, the most a manifest may hold (about half a million rows): split it"
        }
    }

    /// A stream without a manifest's name (a process substitution's `/dev/fd/63`) is read as
    /// JSON Lines or CSV by its first character, its paths taken from the current folder.
    @Test(arguments: [("output,tilt_x\nout/a.png,3\n", Manifest.Format.csv), ("\n  {\"output\": \"out/a.png\", \"tilt_x\": 3}\n", .jsonLines)])
    func aStreamWithoutAManifestsNameIsReadByItsContent(text: String, format: Manifest.Format) throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/63"
        try FIFO.make(path)
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let manifest = try Self.read(path)
        #expect(manifest.format == format)
        #expect(manifest.isUnnamedStream)
        #expect(manifest.rows.map(\.values) == [["output": "out/a.png", "tilt_x": "3"]])
        #expect(manifest.resolve("out/a.png") == "out/a.png")
    }

    /// A regular file keeps needing a manifest's name: a typo is not read as a manifest.
    @Test func aFileWithoutAManifestsNameIsRefused() throws {
        let temporary = try TemporaryDirectory()
        let path = temporary.path + "/cards.txt"
        _ = FileManager.default.createFile(atPath: path, contents: Data("output\na.png\n".utf8))
        #expect { try Self.read(path) } throws: { error in
            (error as? ManifestError)?.reason.contains("must end in .csv or .jsonl") == true
        }
    }
}
