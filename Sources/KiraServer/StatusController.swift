#if Server
import Hummingbird
import ServiceLifecycle

/// `/healthz` (the process answers), `/readyz` (it takes work: the cards are loaded, and 503 once it is shutting down) and
/// `/metrics` (Prometheus' text format).
struct StatusController<Context: RequestContext> {
    let metrics: ServerMetrics

    func addRoutes(to router: Router<Context>) {
        router.get("/healthz") { _, _ in Self.text("ok\n") }
        router.get("/readyz") { _, _ in
            // Requests are handled inside the server's service, which learns of a graceful shutdown
            // first: it stops accepting connections, and those kept alive hear 503 here.
            guard !Task.isShuttingDownGracefully else { throw Problem.notReady }
            return Self.text("ready\n")
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition)))
        }
    }

    private static func text(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
#endif
