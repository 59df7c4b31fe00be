import KiraPNG
#if Server
import Dispatch
import Foundation
import KiraFiles
import KiraImage
@testable import KiraServer
import Testing

/// The live preview's frames against the API's, and its WebSocket under abuse: a client that
/// never acknowledges, more connections than the cap at once.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveFaultTests {
    /// Over loopback the frames are raw pixels, and they are the API's frame of the same pose:
    /// the region the card covers byte for byte, the fill colour everywhere else, in a window of
    /// the API's canvas that holds every pose the tilt limit allows.
    @Test func framesOverLoopbackAreTheAPIFramesPixels() async throws {
        try await ServerFixtures.running(ServerFixtures.configuration()) { port in
            let seen = Locked<[LiveFrame]>([])
            try await WebSocketClient.connect(port: port, path: "/live", maxMessageSize: LiveMessages.maxMessageSize) { socket in
                var messages = LiveMessages(socket)
                _ = try await messages.frame(notices: Locked([]))
                try await socket.writeTextMessage(#"{"type":"set","name":"width","value":"200"}"#)
                try await socket.writeTextMessage(##"{"type":"set","name":"background","value":"#203040"}"##)
                try await socket.writeTextMessage(#"{"type":"drag","id":3,"dx":40,"dy":-20}"#)
                try await socket.writeTextMessage(#"{"type":"ack"}"#)
                var frame = try await messages.frame(notices: Locked([]))
                while frame.number("input") < 3 {
                    try await socket.writeTextMessage(#"{"type":"ack"}"#)
                    frame = try await messages.frame(notices: Locked([]))
                }
                seen.withLock { $0.append(frame) }
                try await socket.close(.normalClosure)
            }
            try Self.checkPixels(of: try #require(seen.withLock { $0.first }))
        }
    }

    /// `frame` is the API's frame of its pose, in the window the page shows: its region byte for
    /// byte, its fill colour everywhere else in the window.
    static func checkPixels(of frame: LiveFrame) throws {
        #expect(frame.header["mediaType"] as? String == "application/x-kira-rgba")
        func rectangle(_ key: String) throws -> ImageRegion {
            let r = try #require(frame.header[key] as? [String: Int])
            return ImageRegion(x: r["x"] ?? -1, y: r["y"] ?? -1, width: r["width"] ?? 0, height: r["height"] ?? 0)
        }
        let window = try rectangle("window"), inWindow = try rectangle("region")
        let drawn = ImageRegion(x: window.x + inWindow.x, y: window.y + inWindow.y, width: inWindow.width, height: inWindow.height)
        let fill = try #require(frame.header["fill"] as? [Int]).map { UInt8($0) }
        #expect(fill == [0x20, 0x30, 0x40, 255])
        let url = try #require(frame.header["url"] as? String)
        let api = try PNGCodec.decode(try ServerFixtures.expectedFrame(RenderQuery.pairsForTesting(url)))
        guard case .rgba8(let full) = api else { throw LiveFaultFailure.notEightBit }
        #expect(frame.number("canvasWidth") == Double(window.width) && frame.number("canvasHeight") == Double(window.height))
        // The page's canvas is the part of the API's canvas (room for ±45°) that a ±10° card
        // reaches at any flip; the card lies inside it.
        #expect(window.x >= 0 && window.y >= 0 && window.x + window.width <= full.width && window.y + window.height <= full.height)
        #expect(Double(window.width * window.height) < 0.6 * Double(full.width * full.height))
        #expect(!drawn.isEmpty && drawn.intersection(window) == drawn)
        #expect(frame.image == full.cropped(to: drawn).channels)
        let background = SIMD4(fill[0], fill[1], fill[2], fill[3])
        var outside = 0
        for y in 0..<full.height {
            for x in 0..<full.width where x < drawn.x || x >= drawn.x + drawn.width || y < drawn.y || y >= drawn.y + drawn.height {
                if full.pixel(x: x, y: y) != background { outside += 1 }
            }
        }
        #expect(outside == 0)
    }

    /// A client that sends input as fast as it can and never acknowledges a frame: the server
    /// renders the frame it sent and at most one more, then waits (back-pressure, not a queue)
    /// however long the card keeps moving, and goes on serving everyone else. The time is the
    /// test's: it moves it on by hand, and a notice (the answer to bad input, written by the
    /// connection's one sender) shows each time that the sender has looked at the connection since.
    @Test func aClientThatNeverAcknowledgesGetsOneFrameAndOneWaiting() async throws {
        let clock = ManualClock()
        try await ServerFixtures.running(ServerFixtures.configuration { $0.liveEncoding = .png }, clock: clock) { port in
            let client = SocketClient(port: port)
            try await WebSocketClient.connect(port: port, path: "/live", maxMessageSize: LiveMessages.maxMessageSize) { socket in
                var messages = LiveMessages(socket)
                _ = try await messages.frame(notices: Locked([]))
                try await socket.writeTextMessage(#"{"type":"set","name":"width","value":"160"}"#)
                try await socket.sendDrags(5_000) { ($0 % 90, $0 % 7) }
                // A flip after the drags keeps the card moving for a while: a server that did not
                // wait for the page would go on rendering it.
                try await socket.writeTextMessage(#"{"type":"flip"}"#)
                // Three seconds in all, far past the frame interval and the flip.
                try await Self.passTime(clock, by: .milliseconds(250), times: 12, on: socket)
                try await socket.close(.normalClosure)
            }
            #expect(try await Self.renders(client) == 2, "the frame that waits for the page was not rendered, or more were")
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/cards/sample/render.png?size=64x64", method: .get).status == .ok)
        }
    }

    /// Sixty connections at once with a cap of two: two are served, every other one is closed at
    /// once with "Try Again Later" (1013) and a reason naming the option, and the server answers
    /// afterwards.
    @Test func connectionsBeyondTheCapAreRefusedWithAReason() async throws {
        try await ServerFixtures.running(ServerFixtures.configuration { $0.maxLiveConnections = 2 }) { port in
            let connections = try await RawConnection.open(60, port: port)
            await RawConnection.onOwnThread { for connection in connections { connection.send(RawConnection.webSocketUpgrade(path: "/live")) } }
            var served = 0, refused = 0, other: [String] = []
            for connection in connections {
                let bytes = await connection.read(seconds: 120) { !RawConnection.webSocketFrames(in: $0).isEmpty }
                switch RawConnection.webSocketFrames(in: bytes).first {
                case .some((0x88, let payload)) where payload.starts(with: [0x03, 0xF5])
                    && String(decoding: payload.dropFirst(2), as: UTF8.self).contains("--max-live-connections"):
                    refused += 1
                case .some((0x02, _)), .some((0x82, _)):
                    served += 1
                default:
                    other.append(String(decoding: bytes.prefix(200), as: UTF8.self))
                }
            }
            #expect(served == 2)
            #expect(refused == 58)
            #expect(other.isEmpty, "\(other.prefix(3))")
            #expect(try await ServerFixtures.get("/healthz", port: port).status == .ok)
            withExtendedLifetime(connections) {}
        }
    }

    /// Moves `clock` on by `step`, `count` times; after each step sends bad input and reads its
    /// notice, which the connection's one sender writes when it next looks at the connection, so
    /// the sender has seen each step's time. A frame instead of the notice is an issue.
    static func passTime(_ clock: ManualClock, by step: Duration, times count: Int, on socket: WebSocketClient,
                         sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for _ in 0..<count {
            clock.advance(by: step)
            try await socket.writeTextMessage("not json")
            let message = try #require(try await socket.next(), "the server closed the connection", sourceLocation: sourceLocation)
            guard case .text(let notice) = message else {
                Issue.record("a frame came that the page had not asked for by acknowledging the last", sourceLocation: sourceLocation)
                return
            }
            #expect(notice.contains("not a live preview message"), "\(notice)", sourceLocation: sourceLocation)
        }
    }

    /// The server's `kira_renders_total`.
    static func renders(_ client: some HTTPTestClient) async throws -> Double {
        let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("kira_renders_total ") }
        return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// The server's `kira_renders_total` once it has reached `count`, or after a minute.
    static func renders(_ client: some HTTPTestClient, reaching count: Double) async throws -> Double {
        var renders = 0.0
        for _ in 0..<600 where renders < count {
            try await Task.sleep(for: .milliseconds(100))
            renders = try await Self.renders(client)
        }
        return renders
    }
}

enum LiveFaultFailure: Error { case notEightBit }
#endif
