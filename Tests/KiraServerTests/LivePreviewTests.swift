#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraImage
import KiraRender
import KiraRequest
import NIOCore
@testable import KiraServer
import Testing

/// The live preview: its page, its WebSocket on a real socket (frames for input, latest wins,
/// bad input answered without closing), its window of the canvas, and the links it shows. The
/// connection cap and clients that never read are `LiveFaultTests`'.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LivePreviewTests {
    @Test func thePageIsServedWithTheParametersOwnRanges() async throws {
        let app = try buildApplication(ServerFixtures.configuration())
        try await RouterClient.withClient(for: app) { client in
            let response = try await client.execute(uri: "/", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            let page = String(buffer: response.body)
            #expect(page.contains(#"<canvas id="card""#))
            #expect(page.contains("kiraPreviewStats"))
            // No address outside the server: the page works offline.
            #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("//cdn"))
            let intensity = try #require(RenderRequest.parameter(named: "intensity")?.range)
            #expect(page.contains(#""name":"intensity""#))
            #expect(page.contains(#""max":\#(Int(intensity.upperBound))"#))
            // The sliders and pickers start at the parameters' defaults.
            #expect(page.contains(#""default":"1""#) && page.contains(#""default":"kira""#))
            #expect(page.contains(#"type="range""#) || page.contains("'range'"))
        }
    }

    @Test func aSignedServerServesThePreviewOnlyWhenAsked() async throws {
        let hidden = try buildApplication(ServerFixtures.configuration { $0.key = ServerFixtures.key })
        try await RouterClient.withClient(for: hidden) { client in
            let status = try await client.execute(uri: "/", method: .get).status
            #expect(status == .notFound)
        }
        let shown = try buildApplication(ServerFixtures.configuration { $0.key = ServerFixtures.key; $0.preview = true })
        try await RouterClient.withClient(for: shown) { client in
            let status = try await client.execute(uri: "/", method: .get).status
            #expect(status == .ok)
        }
    }

    /// A drag gives a frame of the dragged pose, the frame's download link is the API's URL of
    /// the same pose, and bad input is answered with a notice while the connection stays open.
    @Test func framesFollowTheInput() async throws {
        try await ServerFixtures.running(ServerFixtures.configuration { $0.liveEncoding = .png }) { port in
            let seen = Locked<[LiveFrame]>([]), notices = Locked<[String]>([])
            try await WebSocketClient.connect(port: port, path: "/live", maxMessageSize: LiveMessages.maxMessageSize) { socket in
                var messages = LiveMessages(socket)
                let first = try await messages.frame(notices: notices)
                #expect(first.number("tiltX") == 0)
                #expect(first.number("flip") == 0)
                #expect(first.image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                try await socket.writeTextMessage(#"{"type":"set","name":"width","value":"200"}"#)
                try await socket.writeTextMessage(#"{"type":"drag","id":5,"dx":40,"dy":20}"#)
                try await socket.writeTextMessage(#"{"type":"ack"}"#)
                var frame = try await messages.frame(notices: notices)
                while frame.number("input") < 5 {
                    try await socket.writeTextMessage(#"{"type":"ack"}"#)
                    frame = try await messages.frame(notices: notices)
                }
                #expect(frame.number("tiltX") == -3)
                #expect(frame.number("tiltY") == 6)
                #expect(frame.number("width") == 200)
                seen.withLock { $0.append(frame) }
                try await socket.writeTextMessage("not json")
                try await socket.writeTextMessage(#"{"type":"set","name":"glare","value":"7"}"#)
                try await socket.writeTextMessage(#"{"type":"set","name":"art","value":"/etc/passwd"}"#)
                try await socket.writeTextMessage(#"{"type":"drag","dx":1e999,"dy":0}"#)
                while notices.withLock({ $0.count }) < 4, let message = try await messages.socket.next() {
                    if case .text(let text) = message { notices.withLock { $0.append(text) } }
                }
                try await socket.close(.normalClosure)
            }
            let frame = try #require(seen.withLock { $0.first })
            let url = try #require(frame.header["url"] as? String)
            #expect(url.hasPrefix("/v1/cards/sample/render.png?tilt_x=-3&tilt_y=6&crossfade=true&scale="))
            // The link is the API's frame of the same pose, as `kira render` writes it.
            let query = RenderQuery.pairsForTesting(url)
            let api = try await ServerFixtures.get(url, port: port, timeout: .seconds(120))
            #expect(api.status == .ok)
            let expected = try ServerFixtures.expectedFrame(query)
            #expect(Array(buffer: api.body) == expected)
            let command = try #require(frame.header["command"] as? String)
            #expect(command.hasPrefix("kira render --tilt-x=-3 --tilt-y=6 --crossfade --scale="))
            let messages = notices.withLock { $0 }
            // "not json", and 1e999, which no Double holds: both refused as malformed.
            #expect(messages.filter { $0.contains("not a live preview message") }.count == 2, "\(messages)")
            #expect(messages.contains { $0.contains("glare") && $0.contains("between 0 and 1") })
            #expect(messages.contains { $0.contains("unknown control \\\"art\\\"") })
        }
    }

    /// A page left alone: once the card is still and its frame acknowledged, nothing more is
    /// rendered or sent, also past the moment the connection lets its buffers go. The time is the
    /// test's (``LiveFaultTests/passTime(_:by:times:on:sourceLocation:)``).
    @Test func aStillCardSendsNothingMore() async throws {
        let clock = ManualClock()
        try await ServerFixtures.running(ServerFixtures.configuration { $0.liveEncoding = .png }, clock: clock) { port in
            try await WebSocketClient.connect(port: port, path: "/live", maxMessageSize: LiveMessages.maxMessageSize) { socket in
                var messages = LiveMessages(socket)
                let notices = Locked<[String]>([])
                _ = try await messages.frame(notices: notices)
                #expect(notices.withLock { $0 }.isEmpty, "the first frame comes without input")
                try await socket.writeTextMessage(#"{"type":"ack"}"#)
                try await LiveFaultTests.passTime(clock, by: LiveSession.keepBuffers / 4, times: 6, on: socket)
                try await socket.close(.normalClosure)
            }
            #expect(try await LiveFaultTests.renders(SocketClient(port: port)) == 1)
        }
    }

    /// Ten thousand inputs in a burst: only the newest pose is rendered, and the server goes on.
    @Test func aFloodOfInputRendersOnlyTheNewest() async throws {
        try await ServerFixtures.running(ServerFixtures.configuration { $0.liveEncoding = .jpeg }) { port in
            let client = SocketClient(port: port)
            let frames = Locked(0)
            try await WebSocketClient.connect(port: port, path: "/live", maxMessageSize: LiveMessages.maxMessageSize) { socket in
                var messages = LiveMessages(socket)
                _ = try await messages.frame(notices: Locked([]))
                try await socket.writeTextMessage(#"{"type":"set","name":"width","value":"160"}"#)
                try await socket.sendDrags(10_000) { ($0 % 60, 0) }
                try await socket.writeTextMessage(#"{"type":"ack"}"#)
                var frame = try await messages.frame(notices: Locked([]))
                frames.withLock { $0 += 1 }
                while frame.number("input") < 10_000 {
                    try await socket.writeTextMessage(#"{"type":"ack"}"#)
                    frame = try await messages.frame(notices: Locked([]))
                    frames.withLock { $0 += 1 }
                }
                #expect(frame.image.starts(with: [0xFF, 0xD8]))
                #expect(frame.number("tiltY") == Double(10_000 % 60) * 0.15)
                try await socket.close(.normalClosure)
            }
            // Latest wins: a handful of frames, not one per input.
            #expect(frames.withLock { $0 } < 50)
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    /// The page's window of the canvas holds whatever the card draws on the canvas at any pose
    /// within the tilt limit, at every width and limit (at ±45° and mid-flip a card can reach
    /// past the canvas itself, which has room for ±45° of tilt alone), and at the default limit
    /// it is little more than half the canvas.
    @Test func theWindowHoldsEveryPoseWithinTheLimit() throws {
        let cards = try CardLibrary.load(directory: nil, textureBudget: 1 << 30)
        let card = try #require(cards[CardLibrary.sampleID])
        var random = SystemRandomNumberGenerator()
        for (width, limit) in [(630, 10.0), (200, 10.0), (1260, 25.0), (630, 45.0)] {
            var controls = LiveControls(), interaction = InteractiveCard()
            try controls.set("width", to: String(width), cards: cards, interaction: &interaction)
            let window = controls.window(for: card, tiltLimit: limit)
            var scene = try controls.request(pose: CardPose(), card: card).scene(for: card.faces)
            if limit == 10 { #expect(Double(window.width * window.height) < 0.6 * Double(scene.canvasWidth * scene.canvasHeight)) }
            for _ in 0..<300 {
                scene.pose = CardPose(tiltX: Double.random(in: -limit...limit, using: &random),
                                      tiltY: Double.random(in: -limit...limit, using: &random),
                                      flip: Double.random(in: -20...380, using: &random))
                guard let extent = scene.drawnExtent else { continue }
                var bounds = scene.canvasBounds(of: extent)
                bounds.low = pointwiseMax(bounds.low, .zero)
                bounds.high = pointwiseMin(bounds.high, SIMD2(Double(scene.canvasWidth), Double(scene.canvasHeight)))
                #expect(bounds.low.x >= Double(window.x) && bounds.low.y >= Double(window.y)
                        && bounds.high.x <= Double(window.x + window.width) && bounds.high.y <= Double(window.y + window.height),
                        "width \(width), limit \(limit), \(scene.pose): \(bounds) outside \(window)")
            }
        }
    }

    @Test func controlsMapOntoTheRequest() throws {
        let cards = try CardLibrary.load(directory: nil, textureBudget: 1 << 30)
        let card = try #require(cards[CardLibrary.sampleID])
        var controls = LiveControls(), interaction = InteractiveCard()
        try controls.set("width", to: "1260", cards: cards, interaction: &interaction)
        try controls.set("glare", to: "0.5", cards: cards, interaction: &interaction)
        try controls.set("tilt_limit", to: "45", cards: cards, interaction: &interaction)
        #expect(interaction.tiltLimit == 45)
        #expect(throws: RequestError.self) { try controls.set("card", to: "nope", cards: cards, interaction: &interaction) }
        #expect(throws: RequestError.self) { try controls.set("width", to: "5000", cards: cards, interaction: &interaction) }
        let request = try controls.request(pose: CardPose(tiltX: 1.234, tiltY: -2, flip: 90), card: card)
        #expect(request.values.map { "\($0.name)=\($0.value)" }
            == ["tilt_x=1.23", "tilt_y=-2", "flip=90", "crossfade=true", "scale=2", "glare=0.5"])
        #expect(LiveControls.command(for: request, card: card)
            == "kira render --tilt-x=1.23 --tilt-y=-2 --flip=90 --crossfade --scale=2 --glare=0.5 -o card.png")
        #expect(LiveControls.quoted("#1b1f2a") == "'#1b1f2a'")
    }
}

/// A frame as the server sends it: its header (JSON) and its image's bytes.
struct LiveFrame: @unchecked Sendable {
    var header: [String: Any]
    var image: [UInt8]

    /// A number of the header, rounded to a hundredth (the pose's precision); NaN when missing.
    func number(_ key: String) -> Double {
        guard let value = header[key] as? Double else { return .nan }
        return (value * 100).rounded() / 100
    }
}

/// The messages of a live preview connection, as frames and notices.
struct LiveMessages {
    /// A client's message size limit that takes any frame of the tests' cards.
    static let maxMessageSize = 1 << 26

    let socket: WebSocketClient

    init(_ socket: WebSocketClient) { self.socket = socket }

    /// The next frame; notices before it are added to `notices`.
    mutating func frame(notices: Locked<[String]>) async throws -> LiveFrame {
        while let message = try await socket.next() {
            switch message {
            case .text(let text): notices.withLock { $0.append(text) }
            case .binary(var buffer):
                guard let length = buffer.readInteger(endianness: .big, as: UInt32.self), let json = buffer.readBytes(length: Int(length)) else {
                    throw CancellationError()
                }
                let header = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] ?? [:]
                return LiveFrame(header: header, image: buffer.readBytes(length: buffer.readableBytes) ?? [])
            }
        }
        throw CancellationError()
    }
}

extension RenderQuery {
    /// The decoded pairs of a URL's query.
    static func pairsForTesting(_ url: String) -> [(String, String)] {
        let query = url.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        return (try? pairs(query)) ?? []
    }
}
#endif
