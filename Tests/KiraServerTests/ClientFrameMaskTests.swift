#if Server
import NIOCore
import NIOEmbedded
@testable import KiraServer
import Testing

/// A client's WebSocket frame without a mask closes the connection with 1002, whenever it comes:
/// after the upgrade, or in the same read as the upgrade request; masked frames of every length
/// form pass, however their bytes are split, and an HTTP connection's bytes are never read as frames.
@Suite struct ClientFrameMaskTests {
    static let upgrade = Array(RawConnection.webSocketUpgrade(path: "/live").utf8)
    static let closeWithProtocolError: [UInt8] = [0x88, 0x02, 0x03, 0xEA]

    /// What the handler passes on and sends for `reads`, with `upgraded` called after the read
    /// numbered `answeredAfter` (nil: the first request is no upgrade, told after the first read).
    static func run(_ reads: [[UInt8]], answeredAfter: Int?) throws -> (passed: [UInt8], sent: [UInt8], open: Bool) {
        let handler = ClientFrameMaskHandler()
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var passed: [UInt8] = []
        for (number, read) in reads.enumerated() {
            try channel.writeInbound(ByteBuffer(bytes: read))
            while let buffer = try channel.readInbound(as: ByteBuffer.self) { passed += Array(buffer.readableBytesView) }
            if number == answeredAfter { handler.upgraded() }
            if answeredAfter == nil, number == 0 { handler.notUpgrading() }
        }
        var sent: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { sent += Array(buffer.readableBytesView) }
        return (passed, sent, channel.isActive)
    }

    @Test func anUnmaskedFrameAfterTheUpgradeCloses() throws {
        let result = try Self.run([Self.upgrade, RawConnection.webSocketFrame(Array("{}".utf8), masked: false)], answeredAfter: 0)
        #expect(result.sent == Self.closeWithProtocolError)
        #expect(!result.open)
        #expect(result.passed == Self.upgrade, "the unmasked frame went on")
    }

    @Test func anUnmaskedFrameInTheUpgradeRequestsReadClosesOnceAnswered() throws {
        let result = try Self.run([Self.upgrade + RawConnection.webSocketFrame(Array("{}".utf8), masked: false)], answeredAfter: 0)
        #expect(result.sent == Self.closeWithProtocolError)
        #expect(!result.open)
    }

    @Test(arguments: [0, 1, 125, 126, 65535, 65536, 70000])
    func maskedFramesPassWhateverTheirLengthAndSplit(length: Int) throws {
        let frames = RawConnection.webSocketFrame([UInt8](repeating: 0x78, count: length)) + RawConnection.webSocketFrame(Array("{}".utf8), opcode: 0x9)
        let stream = Self.upgrade + frames
        // Every split point near the head's end and the frame headers, and reads of 7 bytes.
        for cut in [Self.upgrade.count - 2, Self.upgrade.count, Self.upgrade.count + 1, Self.upgrade.count + 3, stream.count - 7] {
            let result = try Self.run([Array(stream[..<cut]), Array(stream[cut...])], answeredAfter: 0)
            #expect(result.open && result.sent.isEmpty, "length \(length), cut at \(cut)")
            #expect(result.passed == stream)
        }
        let sevens = stride(from: 0, to: stream.count, by: 7).map { Array(stream[$0..<min($0 + 7, stream.count)]) }
        let result = try Self.run(sevens, answeredAfter: 0)
        #expect(result.open && result.sent.isEmpty && result.passed == stream, "length \(length) in reads of 7 bytes")
    }

    @Test func anHTTPConnectionsBytesAreNotFrames() throws {
        // A second request whose bytes, read as a frame header, have no mask bit ("GE").
        let requests = Array("GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let result = try Self.run([requests, requests], answeredAfter: nil)
        #expect(result.open && result.sent.isEmpty)
        #expect(result.passed == requests + requests)
    }

    /// Over a socket: the live preview's connection gets the close frame, then its end.
    @Test(arguments: [false, true])
    func theLivePreviewClosesOnAnUnmaskedFrame(inTheUpgradesPacket: Bool) async throws {
        try await ServerFixtures.running(ServerFixtures.configuration()) { port in
            let connection = try await RawConnection.open(1, port: port)[0]
            let unmasked = RawConnection.webSocketFrame(Array(#"{"type":"frob","id":1}"#.utf8), masked: false)
            var answer: [UInt8] = []
            if inTheUpgradesPacket {
                connection.send(bytes: Self.upgrade + unmasked)
            } else {
                connection.send(bytes: Self.upgrade)
                answer = await connection.read(seconds: 60) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
                connection.send(bytes: unmasked)
            }
            let received = try answer + #require(await connection.readUntilClosed(seconds: 60), "the connection stayed open")
            #expect(String(decoding: received.prefix(12), as: UTF8.self) == "HTTP/1.1 101")
            let frames = RawConnection.webSocketFrames(in: received)
            #expect(frames.last.map { [$0.first] + Array($0.payload) } == [0x88, 0x03, 0xEA], "\(frames.map(\.first))")
            #expect(!frames.contains { $0.first == 0x81 }, "the message was answered")
            #expect(try await ServerFixtures.get("/healthz", port: port).status == .ok)
        }
    }
}
#endif
