#if Server
import NIOCore

/// Closes the channel unless the bytes it reads reach the end of a request head (an empty line)
/// within `timeout` of the connection opening; then it only passes bytes on.
///
/// The WebSocket-upgradable HTTP/1 pipeline starts HTTP/1's idle timeout only once a first request
/// head has arrived, so a client that connects and sends nothing, or half a head, would hold its
/// connection for ever; and nothing in that pipeline hears a graceful shutdown before a head, so
/// such a connection is closed then too.
final class FirstHeadDeadlineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let timeout: TimeAmount
    /// Told when the client closes its side.
    let peer: PeerWatch
    private var deadline: Scheduled<Void>?
    private var headEnded = false
    private var emptyLine = EmptyLineScanner()

    init(timeout: TimeAmount, peer: PeerWatch = PeerWatch()) {
        self.timeout = timeout
        self.peer = peer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startDeadline(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startDeadline(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !headEnded, unwrapInboundIn(data).withUnsafeReadableBytes({ emptyLine.end(in: $0) }) != nil {
            headEnded = true
            deadline?.cancel()
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { peer.clientClosedInput() }
        if event is ChannelShouldQuiesceEvent, !headEnded {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func startDeadline(_ context: ChannelHandlerContext) {
        guard deadline == nil, !headEnded else { return }
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
#endif
