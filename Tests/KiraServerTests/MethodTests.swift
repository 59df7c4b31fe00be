#if Server
import HTTPTypes
import Hummingbird
import KiraServer
import Testing

/// HEAD wherever GET is; other methods 405 with `Allow` where a route is, 404 elsewhere.
@Suite struct MethodTests {
    @Test func headIsGetWithoutTheBody() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            for uri in ["/healthz", "/readyz", "/metrics", "/v1/cards/sample/render.png?size=8x8"] {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                if uri.contains("render") {
                    #expect(head.headers[.eTag] == get.headers[.eTag])
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes))
                }
            }
        }
    }

    @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options, HTTPRequest.Method("PROPFIND")!])
    func otherMethodsAre405WithAllow(method: HTTPRequest.Method) async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            for uri in ["/v1/cards/sample/render.png?size=8x8", "/healthz", "/metrics"] {
                let response = try await client.execute(uri: uri, method: method, body: ByteBuffer(string: "x"))
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == "GET, HEAD", "\(method) \(uri)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(try ServerFixtures.problem(response)["type"] as? String == "/problems/method-not-allowed")
            }
            let elsewhere = try await client.execute(uri: "/nothing", method: method)
            #expect(elsewhere.status == .notFound)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_renders_total 0\n"), "a refused method rendered: \(metrics)")
        }
    }
}
#endif
