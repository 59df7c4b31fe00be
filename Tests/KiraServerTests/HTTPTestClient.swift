#if Server
import HTTPTypes
import NIOCore

/// What a test sends requests through: the router in process (``RouterClient``) or a socket
/// (``SocketClient``).
protocol HTTPTestClient: Sendable {
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse
}

extension HTTPTestClient {
    @discardableResult
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> TestResponse {
        try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}
#endif
