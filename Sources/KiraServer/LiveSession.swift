#if Server
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import HummingbirdWebSocket
import KiraAnimation
import KiraFiles
import KiraGeometry
import KiraImage
import KiraRequest
import KiraServerAPI
import NIOCore

/// One live preview connection: the page's input in, frames out, latest wins.
///
/// Input only changes the state (the card's ``/KiraAnimation/InteractiveCard`` and the
/// controls), so a flood of messages costs no memory. A single sender renders the pose of *now*
/// whenever the state changed or a spring is still moving, no more often than the server's
/// frames-a-second cap, and sends it once the page has painted the previous frame (its `ack`):
/// at most one frame in flight and one rendering per connection. While a frame is in flight the
/// next render starts so as to be ready about when the acknowledgement comes (``LivePacing``),
/// so it shows the newest input; poses that went by meanwhile are never rendered.
final class LiveSession: Sendable {
    private struct State {
        var card = InteractiveCard()
        var controls = LiveControls()
        /// The newest input's id.
        var input = 0
        /// Input came since the last frame was started.
        var changed = true
        /// A frame was sent and not yet acknowledged.
        var inFlight = false
        /// When the page last acknowledged a frame, until the sender has seen it.
        var acknowledged: ContinuousClock.Instant?
        var notices: [String] = []
    }

    /// How long the renderer keeps its buffers once the card rests.
    static let keepBuffers = Duration.seconds(2)

    private let service: FrameService
    private let encoding: LiveEncoding
    private let renderer: LiveRenderer
    private let interval: Duration
    private let clock: any ServerClock
    private let start: ContinuousClock.Instant
    private let state = Locked(State())
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// A connection whose frames travel as `encoding`.
    init(service: FrameService, encoding: LiveEncoding) {
        self.service = service
        self.encoding = encoding
        renderer = LiveRenderer(threads: service.configuration.renderThreads)
        interval = .seconds(1) / service.configuration.maxLiveFramesPerSecond
        clock = service.clock
        start = service.clock.now
        let stream = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeups = stream.stream
        wake = stream.continuation
    }

    /// Seconds since the connection opened: the clock of the card's springs.
    private var now: Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Serves the connection until the page closes it.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.send(outbound) }
            defer { wake.finish() }
            for try await message in inbound.messages(maxSize: LiveInput.maxBytes) {
                // The stream bounds only fragmented messages; one frame may carry up to the frame size.
                if message.byteCount > LiveInput.maxBytes {
                    try await outbound.close(.messageTooLarge, reason: "a live preview message is at most \(LiveInput.maxBytes) bytes")
                    break
                }
                guard case .text(let text) = message else {
                    notice("binary messages are not live preview input; send JSON text")
                    continue
                }
                do throws(LiveInputError) { try receive(try LiveInput.decode(text)) } catch { notice(error.message) }
            }
            group.cancelAll()
        }
    }

    /// Applies one input to the state.
    func receive(_ input: LiveInput) throws(LiveInputError) {
        let time = now, arrived = clock.now, cards = service.cards
        let failure = state.withLock { state -> LiveInputError? in
            do throws(LiveInputError) {
                try Self.apply(input, to: &state, at: time, arrived: arrived, cards: cards)
                return nil
            } catch {
                return error
            }
        }
        wake.yield()
        if let failure { throw failure }
    }

    private static func apply(_ input: LiveInput, to state: inout State, at time: Double, arrived: ContinuousClock.Instant,
                              cards: CardLibrary) throws(LiveInputError) {
        if let id = input.id { state.input = max(state.input, id) }
        switch input.type {
        case .ack:
            state.inFlight = false
            state.acknowledged = arrived
            return
        case .drag:
            guard let dx = input.dx, let dy = input.dy, dx.isFinite, dy.isFinite else { throw LiveInputError("drag needs finite dx and dy (points)") }
            state.card.drag(dx: dx, dy: dy)
        case .orient:
            guard let beta = input.beta, let gamma = input.gamma, beta.isFinite, gamma.isFinite else {
                throw LiveInputError("orient needs finite beta and gamma (degrees)")
            }
            state.card.orient(beta: beta, gamma: gamma)
        case .release: state.card.release(at: time)
        case .flip: state.card.toggleFlip(at: time)
        case .set:
            guard let name = input.name, let value = input.value else { throw LiveInputError("set needs a name and a value") }
            do { try state.controls.set(name, to: value, cards: cards, interaction: &state.card) } catch { throw LiveInputError(error.description) }
        }
        state.changed = true
    }

    private func notice(_ message: String) {
        state.withLock { state in
            if state.notices.count < 8 { state.notices.append(LiveNotice(message: message).json) }
        }
        wake.yield()
    }

    /// The sender: renders and sends while there is something new to show.
    private func send(_ outbound: WebSocketOutboundWriter) async throws {
        var wakeups = self.wakeups.makeAsyncIterator()
        var lastStart: ContinuousClock.Instant?, seq = 0
        // The page's window of the canvas, for the card, width and tilt limit it was made for.
        var window: (card: String, width: Int, tiltLimit: Double, region: ImageRegion)?
        // The last frame sent was of a moving card: one more shows it settled.
        var settling = false
        var pacing = LivePacing()
        // The last frame's message: handed back to the renderer once the page has acknowledged
        // it and the next frame goes out.
        var sent: ByteBuffer?
        // When the card came to rest, while it stays at rest.
        var restingSince: ContinuousClock.Instant?
        // The earliest wake-up set that has not come yet.
        var nextWake: ContinuousClock.Instant?
        // Wakes the sender at `instant`, unless a wake-up already comes by then: the sender, woken
        // early, asks again. So a drag, which rests between its inputs every other frame, keeps one
        // wake-up pending, not one per rest.
        func wakeUp(at instant: ContinuousClock.Instant) {
            if let pending = nextWake, pending > clock.now, pending <= instant { return }
            nextWake = instant
            Task { [wake, clock] in
                try? await clock.sleep(until: instant)
                wake.yield()
            }
        }
        // Takes the notices (and an acknowledgement's time) and says whether a frame is in flight.
        func poll() -> (notices: [String], due: Bool, inFlight: Bool) {
            let (notices, due, inFlight, acknowledged) = state.withLock { state in
                defer { state.notices = []; state.acknowledged = nil }
                return (state.notices, state.changed || settling || state.card.isMoving(at: now), state.inFlight, state.acknowledged)
            }
            if let acknowledged { pacing.acknowledged(at: acknowledged) }
            return (notices, due, inFlight)
        }
        while !Task.isCancelled {
            let (notices, due, inFlight) = poll()
            for notice in notices { try await outbound.writeTextMessage(notice) }
            guard due else {
                // At rest a while, the renderer's buffers are let go until the card moves again;
                // kept through the short rests between a drag's inputs: letting them go there
                // zeroed a new 1260-wide canvas for each frame, a quarter of the server's CPU
                // (perf, a client acknowledging at once, 2-core Zen 4).
                let rested = restingSince ?? clock.now
                restingSince = rested
                let release = rested + Self.keepBuffers
                if clock.now >= release {
                    renderer.release()
                    sent = nil
                } else {
                    wakeUp(at: release)
                }
                guard await wakeups.next() != nil else { return }
                continue
            }
            restingSince = nil
            if inFlight, let start = pacing.nextRenderStart, clock.now < start {
                wakeUp(at: start)
                guard await wakeups.next() != nil else { return }
                continue
            }
            if let lastStart, clock.now < lastStart + interval { try await clock.sleep(until: lastStart + interval) }
            lastStart = clock.now
            let time = now
            let (card, controls, input) = state.withLock { state in
                state.changed = false
                return (state.card, state.controls, state.input)
            }
            guard let faces = service.cards[controls.cardID] else { continue }
            if window?.card != controls.cardID || window?.width != controls.width || window?.tiltLimit != card.tiltLimit {
                window = (controls.cardID, controls.width, card.tiltLimit, controls.window(for: faces, tiltLimit: card.tiltLimit))
            }
            guard let window, var frame = await render(card.state(at: time), of: faces, controls: controls, window: window.region) else { continue }
            pacing.rendered(taking: frame.duration)
            // One frame in flight: the next goes out once the page has painted this one.
            while true {
                let polled = poll()
                for notice in polled.notices { try await outbound.writeTextMessage(notice) }
                guard polled.inFlight else { break }
                guard await wakeups.next() != nil else { return }
            }
            // The page has the last frame sent: its buffer can take a later frame.
            if let previous = sent {
                sent = nil
                renderer.recycle(previous)
            }
            state.withLock { $0.inFlight = true }
            pacing.sent(at: clock.now)
            seq += 1
            // Taken out of the frame, so that `message` is the image's only reference and putting
            // the header before it does not copy it.
            var message = frame.image.bytes
            frame.image.bytes = ByteBuffer()
            let pose = frame.pose, image = frame.image
            let header = LiveFrameHeader(
                seq: seq, input: input, mediaType: encoding.mediaType, tiltX: pose.tiltX, tiltY: pose.tiltY, flip: pose.flip,
                back: card.showsBack, moving: card.isMoving(at: time), renderMilliseconds: frame.milliseconds, url: frame.url,
                command: frame.command, card: controls.cardID, width: controls.width, canvasWidth: image.window.width,
                canvasHeight: image.window.height, window: image.window, region: image.region,
                fill: image.fill.map { [$0.x, $0.y, $0.z, $0.w] })
            settling = header.moving
            Self.message(header: header, image: &message)
            // One WebSocket frame per message: in 64 KiB fragments Chromium took 25–28 ms of CPU to
            // receive 8.9 MB, against 14–16 ms in one frame (2-core Zen 4, headless Chromium).
            try await outbound.write(.binary(message))
            sent = message
        }
    }

    private struct Frame {
        var image: LiveRenderer.Frame
        /// The pose drawn: the card's, to the hundredth of a degree its URL carries.
        var pose: CardPose
        var url: String
        var command: String
        var duration: Duration
        var milliseconds: Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
    }

    /// The frame of `cardState` with `controls`, or nil after telling the page why not.
    private func render(_ cardState: CardState, of card: CardLibrary.Card, controls: LiveControls, window: ImageRegion) async -> Frame? {
        do {
            let request = try controls.request(pose: cardState.pose, card: card)
            var live = request
            live.output = encoding.output
            let started = clock.now
            let image = try await service.liveFrame(live, card: card, window: window, renderer: renderer, encoding: encoding)
            return Frame(image: image, pose: request.pose, url: service.url(of: request, id: card.id),
                         command: LiveControls.command(for: request, card: card), duration: clock.now - started)
        } catch let error as RequestError {
            notice(error.description)
        } catch let problem as Problem {
            notice(problem.detail)
            if problem.status == .serviceUnavailable {
                // Busy: try again a little later rather than at once.
                try? await clock.sleep(for: .milliseconds(100))
                state.withLock { $0.changed = true }
            }
        } catch {
            notice("the frame could not be made: \(error)")
        }
        return nil
    }

    /// One binary message: the header's length (4 bytes, big-endian), the header as JSON, the
    /// image. The header goes into the room the renderer left before the image
    /// (``LiveRenderer/headerRoom``), so the image is not copied again; a header too long for it
    /// is put in front by copying.
    static func message(header: LiveFrameHeader, image: inout ByteBuffer) {
        let json = (try? JSONEncoder().encode(header)) ?? Data()
        let start = image.readerIndex - 4 - json.count
        guard start >= 0 else {
            var buffer = ByteBuffer()
            buffer.reserveCapacity(4 + json.count + image.readableBytes)
            buffer.writeInteger(UInt32(json.count), endianness: .big)
            buffer.writeBytes(json)
            buffer.writeImmutableBuffer(image)
            image = buffer
            return
        }
        image.setInteger(UInt32(json.count), at: start, endianness: .big)
        image.setBytes(json, at: start + 4)
        image.moveReaderIndex(to: start)
    }
}
extension WebSocketMessage {
    /// The message's length in bytes.
    var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let buffer): buffer.readableBytes
        }
    }
}
#endif
