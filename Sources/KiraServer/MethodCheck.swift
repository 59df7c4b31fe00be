#if Server
import HTTPTypes
import Hummingbird

/// 405 with `Allow` for a method the server does not take at a path it serves; 404 elsewhere.
///
/// Hummingbird's router answers a path it has with another method as one it has not (404), and
/// keeps its routes to itself. So a request with another method goes through the router as a
/// GET, marked in a task local (``probed``), and ``MethodCheckMiddleware`` refuses it before
/// any route runs when the router found a route for its path.
enum MethodCheck {
    /// The methods every route takes (HEAD as GET without the body).
    static let allowed: [HTTPRequest.Method] = [.get, .head]

    /// The method of the request being checked, while it goes through the router as a GET.
    @TaskLocal static var probed: HTTPRequest.Method?

    /// The `Allow` header's value.
    static var allowHeader: String { allowed.map(\.rawValue).joined(separator: ", ") }

    /// `inner`, with requests of other methods checked instead of answered.
    struct Responder<Inner: HTTPResponder>: HTTPResponder {
        let inner: Inner

        func respond(to request: Request, context: Inner.Context) async throws -> Response {
            guard !allowed.contains(request.method) else { return try await inner.respond(to: request, context: context) }
            var head = request.head
            head.method = .get
            return try await MethodCheck.$probed.withValue(request.method) {
                try await inner.respond(to: Request(head: head, body: request.body), context: context)
            }
        }
    }
}

/// Refuses a checked request (``MethodCheck``) whose path has a route, before the route runs.
struct MethodCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The router names the route it found; with none, the request goes on to be a 404.
        guard let method = MethodCheck.probed, context.endpointPath != nil else { return try await next(request, context) }
        throw Problem.methodNotAllowed(method)
    }
}
#endif
