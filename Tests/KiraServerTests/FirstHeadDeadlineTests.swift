#if Server
import NIOCore
import NIOEmbedded
@testable import KiraServer
import Testing

/// The first request head's deadline on a channel whose event loop's time the test moves: the
/// seam NIO's timers have (the idle timeout and this deadline are scheduled on the connection's
/// event loop). The real socket's case is LiveServerTests' aSlowClientIsDisconnected.
@Suite struct FirstHeadDeadlineTests {
    /// A connected channel with the deadline handler, `timeout` from now.
    static func channel(timeout: TimeAmount) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: FirstHeadDeadlineHandler(timeout: timeout))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    @Test func halfAHeadIsClosedAtTheDeadline() throws {
        let channel = try Self.channel(timeout: .seconds(1))
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: a\r\n"))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(999))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        #expect(!channel.isActive)
    }

    @Test func nothingAtAllIsClosedAtTheDeadline() throws {
        let channel = try Self.channel(timeout: .seconds(5))
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        #expect(!channel.isActive)
    }

    /// The empty line that ends a head may come split across reads.
    @Test func aWholeHeadEndsTheDeadline() throws {
        let channel = try Self.channel(timeout: .seconds(1))
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: a\r"))
        try channel.writeInbound(ByteBuffer(string: "\n\r"))
        try channel.writeInbound(ByteBuffer(string: "\n"))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        // The bytes go on to the HTTP decoder as they came.
        var passed = ""
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { passed += String(buffer: buffer) }
        #expect(passed == "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try channel.finish()
    }
}
#endif
