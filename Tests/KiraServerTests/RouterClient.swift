#if Server
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import ServiceLifecycle

/// Sends requests straight to an application's responder, without a socket: what the route
/// tests need, and much cheaper than a server per test.
struct RouterClient<Responder: HTTPResponder>: HTTPTestClient
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let logger: Logger

    /// Runs `body` with a client of `app`'s responder, with the application's services (if it
    /// has any) running meanwhile.
    static func withClient<App: ApplicationProtocol, Value: Sendable>(
        for app: App, _ body: @Sendable (RouterClient<App.Responder>) async throws -> Value
    ) async throws -> Value where App.Responder == Responder {
        let client = RouterClient(responder: try await app.responder, logger: app.logger)
        guard !app.services.isEmpty else {
            for process in app.processesRunBeforeServerStart { try await process() }
            return try await body(client)
        }
        let group = ServiceGroup(configuration: .init(services: app.services, logger: app.logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                for process in app.processesRunBeforeServerStart { try await process() }
                let value = try await body(client)
                await group.triggerGracefulShutdown()
                return value
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        // A channel that never touches the network: the context only asks it for addresses.
        let context = Responder.Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // The server's middleware answers every error with a problem: one that escapes is a fault.
            response = Response(status: .internalServerError)
        }
        let collector = ResponseCollector()
        try await response.body.write(collector)
        return TestResponse(status: response.status, headers: response.headers, body: collector.body)
    }
}
#endif
