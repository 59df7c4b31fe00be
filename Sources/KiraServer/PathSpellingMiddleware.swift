#if Server
import Hummingbird

/// One spelling per path: a path with an empty segment (`//v1//cards`) or a trailing slash
/// (`/healthz/`) is 404 at every route, never served and never redirected.
///
/// Hummingbird's router skips empty segments, so `//v1//cards/sample/render.png/` reached the
/// frame of `/v1/cards/sample/render.png`, under that path's signature: one signed URL was valid
/// under endless spellings, each a separate entry in a cache in front. A 404 rather than a
/// redirect: a cache keeps nothing for it, and a client learns the one spelling from the
/// problem's detail.
struct PathSpellingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard Self.isCanonical(path) else { throw Problem.noRoute(path) }
        return try await next(request, context)
    }

    /// Whether `path` is spelled as the server's routes are: `/`, or segments that are not empty
    /// after a slash each, and no slash at the end. A target that is not a path (`*`) is left to
    /// the routes.
    static func isCanonical(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path != "/" else { return true }
        return !path.hasSuffix("/") && !path.contains("//")
    }
}
#endif
