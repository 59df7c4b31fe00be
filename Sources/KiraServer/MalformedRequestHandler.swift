#if Server
import HTTPTypes
import NIOCore
import NIOHTTP1

/// Turns a request the HTTP/1 decoder cannot parse into a request the server answers: the status
/// RFC 9112 and RFC 9110 give for it, as problem+json, then the connection closes.
///
/// It sits right after the decoder. Left alone, a parse error before the first head leaves the
/// upgradable pipeline waiting for a head that never comes (the connection and its descriptor
/// held), and one on a kept-alive connection gets an empty 400. So the error goes on as a request
/// of its own, marked with a token no client knows, after the responses already under way; the
/// server's responder answers it (``MalformedRequest/responder(wrapping:logger:metrics:)``).
final class MalformedRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    // Parts pass through untouched: after a WebSocket upgrade, bytes do.
    typealias InboundIn = HTTPServerRequestPart

    private var answered = false
    /// A request asked for an upgrade: what passes after it may be bytes (when the upgrade goes
    /// on, the decoder leaves and hands on what it buffered), and no request follows it.
    private var upgradeAsked = false
    /// The request's first bytes, to tell its fault (``MalformedRequest/Fault``).
    private let start: RequestStartRecorder

    init(start: RequestStartRecorder) {
        self.start = start
    }

    /// A CONNECT was answered: what follows is a tunnel's bytes, never read.
    private var connectRefused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if connectRefused { return }
        if !upgradeAsked, case .head(let head) = unwrapInboundIn(data) {
            start.headParsed()
            if head.method == .CONNECT, !answered {
                // Its answer is a problem with a body, which the encoder would strip from an
                // answer to a CONNECT: marked, it goes to the responder that writes it whole.
                connectRefused = true
                answered = true
                answer(.connect, context: context)
                return
            }
            upgradeAsked = head.headers.contains(name: "upgrade")
        }
        context.fireChannelRead(data)
    }

    /// Passes on a request marked with `fault`, for the responder to answer and close.
    private func answer(_ fault: MalformedRequest.Fault, context: ChannelHandlerContext) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        head.headers.add(name: MalformedRequest.headerName, value: MalformedRequest.marker(for: fault))
        head.headers.add(name: "Connection", value: "close")
        context.fireChannelRead(NIOAny(HTTPServerRequestPart.head(head)))
        context.fireChannelRead(NIOAny(HTTPServerRequestPart.end(nil)))
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError {
            guard !answered else { return }
            answered = true
            answer(.init(error, start: start.start, lineLength: start.lineLength, lineEnded: start.lineEnded), context: context)
            return
        }
        // The decoder refuses what comes after its error; the answer is on its way.
        if answered, error is ByteToMessageDecoderError { return }
        context.fireErrorCaught(error)
    }
}
#endif
