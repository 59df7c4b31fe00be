#if Server
import Hummingbird
import HummingbirdWebSocket
import KiraServerAPI
import NIOCore

/// The request context of `kira serve`'s routes: Hummingbird's basic one, plus the WebSocket
/// upgrade the live preview needs and the peer's address, by which the live preview picks raw
/// frames for a page on the same machine (``LiveEncoding/automatic(forPeer:)``).
struct ServerRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext, PeerRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let remoteAddress: SocketAddress?
    private let channel: any Channel
    private let peer: PeerWatch?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
        peer = PeerWatch.current
    }

    var peerLeft: Bool {
        // Without a peer (a request made in process), no one can leave.
        guard remoteAddress != nil else { return false }
        return !channel.isActive || peer?.inputClosed == true
    }
}

/// A request context that knows whether its client is still connected.
protocol PeerRequestContext: RequestContext {
    /// The connection closed: an answer made now reaches no one.
    var peerLeft: Bool { get }
}
#endif
