#if Server
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request (method, path, status, milliseconds, and for frames whether the
/// cache had it), and the request's count and latency in the metrics.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics
    let logger: Logger
    let clock: any ServerClock

    /// The response header that says where a frame came from: `hit` (the cache), `miss`
    /// (rendered for this request) or `joined` (rendered for an identical request in flight).
    static var cacheHeader: HTTPField.Name { HTTPField.Name("X-Kira-Cache")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = clock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ProblemMiddleware answers every error; one that still escapes is logged as a 500.
            record(request, status: 500, cache: nil, route: context.endpointPath, since: start)
            throw error
        }
        // A client that left while its answer was made never gets it: 499, as for a cancelled request.
        let left = (context as? any PeerRequestContext)?.peerLeft ?? false
        let status = left ? Problem.clientClosed.status.code : response.status.code
        record(request, status: status, cache: response.headers[Self.cacheHeader], route: context.endpointPath, since: start)
        return response
    }

    private func record(_ request: Request, status: Int, cache: String?, route: String?, since start: ContinuousClock.Instant) {
        let elapsed = clock.now - start
        metrics.recordRequest(route: route ?? "unmatched", status: status, duration: elapsed)
        let milliseconds = Double(elapsed.components.attoseconds / 10_000_000_000_000) / 100 + Double(elapsed.components.seconds) * 1000
        // The path as sent, cut short: a log line stays a line whatever a client sends.
        let path = String(request.uri.description.prefix(300)).map { $0.isASCII && !$0.isNewline ? $0 : "?" }
        logger.info("\(MethodCheck.probed ?? request.method) \(String(path)) \(status) \(milliseconds) ms\(cache.map { " " + $0 } ?? "")")
    }
}
#endif
