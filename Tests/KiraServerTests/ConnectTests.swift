#if Server
import Foundation
import KiraServer
import Testing

/// CONNECT is refused as every other method but GET and HEAD is, with a whole problem: SwiftNIO's
/// encoder would send its answer as a tunnel's (no body, no Content-Length) and keep reading the
/// connection as a tunnel.
@Suite struct ConnectTests {
    @Test(arguments: ["CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                      "CONNECT /healthz HTTP/1.1\r\nHost: a\r\n\r\n",
                      "GET /healthz HTTP/1.1\r\nHost: a\r\n\r\nCONNECT /v1/cards/sample/render.png HTTP/1.1\r\nHost: a\r\n\r\n"])
    func connectIsAProblemWithABodyAndTheConnectionCloses(request: String) async throws {
        try await ServerFixtures.running(ServerFixtures.configuration()) { port in
            let connection = try RawConnection(port: port)
            connection.send(request + "tunnel bytes that are never read")
            let received = try #require(await connection.readUntilClosed(seconds: 20), "the connection stayed open")
            let text = String(decoding: received, as: UTF8.self)
            // The last answer is the CONNECT's (after a pipelined GET's).
            let answer = String(text[try #require(text.range(of: "HTTP/1.1 405", options: .backwards)).lowerBound...])
            let (head, body) = try #require(answer.range(of: "\r\n\r\n").map { (answer[..<$0.lowerBound], answer[$0.upperBound...]) })
            #expect(head.contains("Content-Type: application/problem+json"), "\(head)")
            #expect(head.contains("Allow: GET, HEAD"), "\(head)")
            let length = try #require(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }, "\(head)")
            #expect(Int(length.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) == body.utf8.count, "\(answer)")
            let problem = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            #expect(problem?["type"] as? String == "/problems/method-not-allowed")
            #expect(problem?["status"] as? Int == 405)
            // The server goes on serving.
            #expect(try await ServerFixtures.get("/healthz", port: port).status == .ok)
        }
    }
}
#endif
