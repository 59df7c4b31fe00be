#if Server
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client over a real socket to 127.0.0.1: NIO's handshake and frame codecs, client
/// frames masked, fragmented messages put back together, pings answered. One task uses it.
final class WebSocketClient {
    enum Message {
        case text(String)
        case binary(ByteBuffer)
    }

    struct NotUpgraded: Error { var path: String }

    private var inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private var closeSent = false

    private init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) {
        self.inbound = inbound
        self.outbound = outbound
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// Opens a WebSocket at `path` on the server at `port`, runs `body` with it, then closes
    /// the connection. Messages over `maxMessageSize` bytes fail the connection.
    static func connect<Value>(port: Int, path: String, maxMessageSize: Int,
                               _ body: (WebSocketClient) async throws -> Value) async throws -> Value {
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxMessageSize) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            // The server splits large messages into frames; these come whole.
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: .max,
                                                            maxAccumulatedFrameSize: maxMessageSize))
                            return Upgrade.upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    }
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": "127.0.0.1:\(port)"])
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: .init(
                            upgradeRequestHead: head, upgraders: [upgrader],
                            notUpgradingCompletionHandler: { channel in channel.eventLoop.makeCompletedFuture { .refused } })))
                }
            }
            .get()
        guard case .upgraded(let channel) = upgrade else { throw NotUpgraded(path: path) }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(WebSocketClient(inbound: inbound.makeAsyncIterator(), outbound: outbound))
        }
    }

    /// The next text or binary message; nil once the server has closed the connection.
    func next() async throws -> Message? {
        while let frame = try await inbound.next() {
            switch frame.opcode {
            case .text: return .text(String(buffer: frame.unmaskedData))
            case .binary: return .binary(frame.unmaskedData)
            case .ping: try await send(.pong, frame.unmaskedData)
            case .connectionClose:
                // Answer the server's close with its code, as RFC 6455 asks.
                if !closeSent {
                    var data = frame.unmaskedData
                    try await send(.connectionClose, data.readSlice(length: min(2, data.readableBytes)) ?? ByteBuffer())
                    closeSent = true
                }
                return nil
            default: continue
            }
        }
        return nil
    }

    func writeTextMessage(_ text: String) async throws {
        try await send(.text, ByteBuffer(string: text))
    }

    /// Sends `count` live preview drags, ids 1 to `count`, the one with id `i` moving by `move(i)`.
    func sendDrags(_ count: Int, _ move: (Int) -> (dx: Int, dy: Int)) async throws {
        for i in 1...count {
            let (dx, dy) = move(i)
            try await writeTextMessage(#"{"type":"drag","id":\#(i),"dx":\#(dx),"dy":\#(dy)}"#)
        }
    }

    /// Sends a close frame with `code` (and `reason`, if any).
    func close(_ code: WebSocketErrorCode, reason: String? = nil) async throws {
        var payload = ByteBuffer()
        payload.write(webSocketErrorCode: code)
        if let reason { payload.writeString(reason) }
        try await send(.connectionClose, payload)
        closeSent = true
    }

    private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
        // A client masks every frame it sends (RFC 6455, 5.3); the encoder applies the key.
        try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
    }
}
#endif
