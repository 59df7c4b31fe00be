#if Server
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 client of a server on 127.0.0.1 that sends each request on a connection of its
/// own: no request waits behind another's, and none finds a connection closed for idling.
struct SocketClient: HTTPTestClient {
    let port: Int
    /// How long a request may take, connecting included, before it fails.
    var timeout: Duration = .seconds(60)

    struct TimedOut: Error { var uri: String }
    struct ClosedEarly: Error { var uri: String }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        try await withThrowingTaskGroup(of: TestResponse?.self) { tasks in
            tasks.addTask { try await exchange(uri: uri, method: method, headers: headers, body: body) }
            tasks.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { tasks.cancelAll() }
            // The first to finish: the response, or nil from the timer.
            guard let first = try await tasks.next(), let response = first else { throw TimedOut(uri: uri) }
            return response
        }
    }

    private func exchange(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: uri)
        head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
        for field in headers { head.headers.add(name: field.name.rawName, value: field.value) }
        if let body, headers[.contentLength] == nil { head.headers.add(name: "Content-Length", value: String(body.readableBytes)) }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(.head(head))
            if let body { try await outbound.write(.body(.byteBuffer(body))) }
            try await outbound.write(.end(nil))
            var response: TestResponse?
            for try await part in inbound {
                switch part {
                case .head(let received):
                    var fields = HTTPFields()
                    for (name, value) in received.headers {
                        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                    }
                    response = TestResponse(status: HTTPResponse.Status(code: Int(received.status.code)), headers: fields, body: ByteBuffer())
                case .body(let buffer):
                    response?.body.writeImmutableBuffer(buffer)
                case .end:
                    guard let response else { break }
                    return response
                }
            }
            // Closed (or cancelled by the timeout) before the response ended.
            throw ClosedEarly(uri: uri)
        }
    }
}
#endif
