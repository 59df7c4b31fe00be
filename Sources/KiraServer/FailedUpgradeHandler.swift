#if Server
import NIOCore
import NIOHTTP1

/// Gives a refused WebSocket upgrade (one at any path but the live preview's) a problem+json body:
/// the upgradable pipeline answers it with an empty 400.
///
/// It sits right after the HTTP decoder and looks only at a connection's first request: when it
/// asks for an upgrade, the answer's head is either 101 (the upgrade goes on) or that 400, which it
/// fills in, and it tells ``ClientFrameMaskHandler`` which it was. After that head it passes
/// everything untouched: WebSocket bytes, once upgraded.
final class FailedUpgradeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private var firstSeen = false
    private var upgradeAsked = false
    private var answered = false
    /// Told whether the connection is upgraded, so that it checks the client's frames.
    private let frames: ClientFrameMaskHandler

    init(frames: ClientFrameMaskHandler) {
        self.frames = frames
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !firstSeen {
            firstSeen = true
            if case .head(let head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") { upgradeAsked = true }
            if !upgradeAsked { frames.notUpgrading() }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard upgradeAsked, !answered, case .head(var head) = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        answered = true
        if head.status == .badRequest {
            let problem = Problem.noWebSocket
            let body = ByteBuffer(bytes: problem.json)
            head.headers = HTTPHeaders(problem.headers.map { ($0.name.rawName, $0.value) })
            head.headers.replaceOrAdd(name: "Connection", value: "close")
            head.headers.replaceOrAdd(name: "Content-Length", value: String(body.readableBytes))
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
        } else {
            context.write(data, promise: promise)
        }
        if head.status == .switchingProtocols { frames.upgraded() } else { frames.notUpgrading() }
    }
}
#endif
