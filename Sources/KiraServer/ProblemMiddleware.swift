#if Server
import Hummingbird
import Logging

/// Turns every error on the way out into an RFC 9457 problem response, so that no answer but a
/// frame is ever anything else: a route that does not exist, a wrong method, a failure inside.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return problem.response
        } catch is CancellationError {
            // The client left, or the grace period ended, before the frame was ready (the render
            // goes on for others and the cache).
            return Problem.clientClosed.response
        } catch let error as HTTPError where error.status == .notFound {
            return Problem.noRoute(request.uri.path).response
        } catch let error as HTTPError where error.status == .methodNotAllowed {
            return Problem.methodNotAllowed(request.method).response
        } catch let error as HTTPError {
            return Problem(status: error.status, kind: "http", title: error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase).response
        } catch {
            context.logger.error("unexpected failure", metadata: ["error": "\(String(describing: error))"])
            return Problem.internal("the server failed to answer; see its log").response
        }
    }
}
#endif
