#if Server
@testable import KiraServer
import Testing

/// A WebSocket message sent in the same packet as its upgrade request: the HTTP decoder hands the
/// message's bytes on when it leaves, and they pass the handlers that read HTTP parts before it.
@Suite struct PipelinedUpgradeTests {
    @Test func aMessageSentWithTheUpgradeIsRead() async throws {
        try await ServerFixtures.running(ServerFixtures.configuration()) { port in
            let connection = try await RawConnection.open(1, port: port)[0]
            let message = Array(#"{"type":"frob","id":1}"#.utf8)
            connection.send(bytes: Array(RawConnection.webSocketUpgrade(path: "/live").utf8) + RawConnection.webSocketFrame(message))
            let received = await connection.read(seconds: 60) { bytes in
                RawConnection.webSocketFrames(in: bytes).contains { $0.first == 0x81 && String(decoding: $0.payload, as: UTF8.self).contains("error") }
            }
            #expect(String(decoding: received.prefix(12), as: UTF8.self) == "HTTP/1.1 101", "\(String(decoding: received.prefix(200), as: UTF8.self))")
            #expect(RawConnection.webSocketFrames(in: received).contains { $0.first == 0x81 }, "no answer to the message")
            #expect(try await ServerFixtures.get("/healthz", port: port).status == .ok)
        }
    }
}
#endif
