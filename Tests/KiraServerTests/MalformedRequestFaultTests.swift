#if Server
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import KiraServer
import Testing

/// Requests the HTTP/1 decoder refuses alike are told apart by their first bytes: an unknown
/// method (501) from junk (400), a request line too long (414) from a head too long (431), and
/// HTTP/2's preface (505), which pauses the decoder rather than failing it.
@Suite struct MalformedRequestFaultTests {
    static let cases: [(name: String, request: String, fault: MalformedRequest.Fault, status: Int)] = [
        ("lower-case method", "get /healthz HTTP/1.1\r\nHost: a\r\n\r\n", .unknownMethod, 501),
        ("unknown method", "FROB /healthz HTTP/1.1\r\nHost: a\r\n\r\n", .unknownMethod, 501),
        ("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", .version, 505),
        ("HTTP/3.0", "GET /healthz HTTP/3.0\r\nHost: a\r\n\r\n", .version, 505),
        ("TLS ClientHello", "\u{16}\u{03}\u{01}\u{00}\u{A5}\u{01}\u{00}\u{00}" + String(repeating: "*", count: 160), .method, 400),
        ("1 MiB request line", "GET /\(String(repeating: "a", count: 1 << 20)) HTTP/1.1\r\nHost: a\r\n\r\n", .requestLineTooLong, 414),
        ("1 MiB header", "GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "a", count: 1 << 20))\r\n\r\n", .headTooLarge, 431),
        ("header without a colon", "GET /healthz HTTP/1.1\r\nHost: a\r\nNoColonHere\r\n\r\n", .other, 400),
        ("a second request with an unknown method", "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nfrob / HTTP/1.1\r\n\r\n", .unknownMethod, 501),
        ("a second request line too long", "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /\(String(repeating: "b", count: 1 << 20))", .requestLineTooLong, 414),
    ]

    /// The fault the decoder's pipeline marks a request with, as the server's child channel builds
    /// it: its first `firstRead` bytes in one read (all of them by default), then a byte a read up
    /// to byte `bytewiseUpTo`, the rest in reads of `readBytes`.
    static func fault(of request: String, firstRead: Int = .max, bytewiseUpTo: Int = 0, readBytes: Int = .max) throws -> MalformedRequest.Fault? {
        let channel = EmbeddedChannel()
        let start = RequestStartRecorder()
        try channel.pipeline.syncOperations.addHandlers([
            start, ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)), MalformedRequestHandler(start: start),
        ])
        let bytes = Array(request.utf8)
        var reads = [bytes.prefix(firstRead)]
        let bytewiseEnd = max(reads[0].count, min(bytewiseUpTo, bytes.count))
        reads += (reads[0].count..<bytewiseEnd).map { bytes[$0..<($0 + 1)] }
        reads += stride(from: bytewiseEnd, to: bytes.count, by: readBytes).map { bytes[$0..<min($0 + readBytes, bytes.count)] }
        for read in reads where !read.isEmpty {
            guard (try? channel.writeInbound(ByteBuffer(bytes: read))) != nil else { break }
        }
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            if case .head(let head) = part, let marker = head.headers.first(name: MalformedRequest.headerName) {
                return marker.split(separator: " ").last.flatMap { MalformedRequest.Fault(rawValue: String($0)) }
            }
        }
        return nil
    }

    @Test(arguments: cases.indices)
    func theFaultAndItsStatus(index: Int) throws {
        let (name, request, fault, status) = Self.cases[index]
        #expect(try Self.fault(of: request) == fault, "\(name)")
        #expect(fault.problem.status.code == status, "\(name)")
    }

    /// A head whose connection's input closes halfway is marked incomplete: answered with a 400 in
    /// case the client still reads, and logged at debug level, as a connection closed before its
    /// first head is.
    @Test func aHeadCutShortByTheClientIsIncomplete() throws {
        let channel = EmbeddedChannel()
        let start = RequestStartRecorder()
        try channel.pipeline.syncOperations.addHandlers([
            start, ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)), MalformedRequestHandler(start: start),
        ])
        try channel.writeInbound(ByteBuffer(bytes: Array("GET /healthz HTTP/1.1\r\nHost: a\r\nX-".utf8)))
        #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == nil)
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        var marker: String?
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            if case .head(let head) = part { marker = head.headers.first(name: MalformedRequest.headerName) }
        }
        let fault = try #require(marker?.split(separator: " ").last.flatMap { MalformedRequest.Fault(rawValue: String($0)) })
        #expect(fault == .incomplete)
        #expect(fault.problem.status.code == 400)
        #expect(MalformedRequest.logLevel(of: fault) == .debug)
        #expect(MalformedRequest.logLevel(of: .other) == .info)
    }

    /// The recorder keeps what tells the faults apart however the reads split the request's line
    /// and head: after a first read of 16 bytes, a byte a read up to byte 4096 (every short head
    /// whole), then reads of 4 KiB. Not the unknown methods: the decoder fails on a method's first
    /// byte it cannot take, so a method split across reads is told as junk (400, not 501).
    @Test(arguments: cases.indices.filter { cases[$0].fault != .unknownMethod })
    func theFaultWhateverTheReads(index: Int) throws {
        let (name, request, fault, _) = Self.cases[index]
        #expect(try Self.fault(of: request, firstRead: 16, bytewiseUpTo: 4096, readBytes: 4096) == fault, "\(name)")
    }

    /// A request the decoder reads is not marked, however its bytes arrive.
    @Test(arguments: [1, 5, Int.max])
    func aWellFormedRequestIsNotMarked(readBytes: Int) throws {
        #expect(try Self.fault(of: "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\n\r\n", firstRead: 0, readBytes: readBytes) == nil)
    }
}
#endif
