#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraImage
import KiraRequest
import NIOCore
import NIOWebSocket

/// The live preview: `GET /`, the page (``PreviewPage``), and `/live`, its WebSocket
/// (``LiveSession``), with the cap on connections open at once.
struct LiveController<Context: WebSocketRequestContext & RemoteAddressRequestContext> {
    let service: FrameService
    private let open = Locked(0)

    init(service: FrameService) { self.service = service }

    /// The close code of a connection refused for the cap: RFC 6455's registry's "Try Again Later".
    static var tryAgainLater: WebSocketErrorCode { .unknown(1013) }

    func addRoutes(to router: Router<Context>) {
        let page = PreviewPage.html(configuration: PreviewConfiguration(service: service).json)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }
        let cap = service.configuration.maxLiveConnections
        let encoding = service.configuration.liveEncoding
        router.ws("/live", onUpgrade: { inbound, outbound, context in
            guard open.withLock({ count in
                guard count < cap else { return false }
                count += 1
                return true
            }) else {
                try await outbound.close(Self.tryAgainLater, reason: "this server has \(cap) live previews open, its --max-live-connections; try again later")
                return
            }
            defer { open.withLock { $0 -= 1 } }
            let session = LiveSession(service: service, encoding: encoding ?? .automatic(forPeer: context.requestContext.remoteAddress?.ipAddress))
            try await session.run(inbound: inbound, outbound: outbound)
        })
    }

    /// Live previews open now.
    var openConnections: Int { open.withLock { $0 } }
}
#endif
