#if Server
import Dispatch
import Foundation
import KiraFiles
import KiraFormats
import KiraImage
import KiraRender
import KiraRequest
import KiraServerAPI
import KiraTextureCache
import NIOCore
import NIOPosix

/// What the render endpoint does, apart from HTTP: a card id and a query in, a frame (or the
/// problem with them) out, within the server's limits.
///
/// In order: an unsigned URL to a server with a key is refused (403), the query is parsed (400),
/// its signature checked (403), the card looked up (404). A cached frame is answered then (or a
/// 304 when the client has it): it passed the checks that follow when it was made. Otherwise the
/// frame is prepared by the library's checks `kira render` makes too (400: a setting the route's
/// format cannot store, a {width} over the canvas), and its canvas and memory checked against the
/// server's caps (400); a frame the client already has is a 304 without rendering; otherwise the
/// frame is rendered once for every identical request in flight, when a render slot and memory
/// are free within a short wait (503 after it), on a render thread (SwiftNIO's blocking pool),
/// through the same request methods `kira render` uses, so the bytes are the same.
final class FrameService: Sendable {
    /// A frame to send, or the news that the client has it.
    enum Answer: Sendable {
        case frame(ByteBuffer, etag: String, source: FrameCache.Source)
        case notModified(etag: String)
    }

    /// Makes a frame's file: by default ``renderOnRenderThread(_:threads:)``; tests hold it open.
    typealias Render = @Sendable (_ frame: PreparedFrame, _ threads: Int) async throws -> [UInt8]

    let configuration: ServerConfiguration
    let cards: CardLibrary
    let cache: FrameCache
    let gate: AdmissionGate
    let metrics: ServerMetrics
    let clock: any ServerClock
    private let signature: URLSignature?
    private let renderFile: Render

    init(configuration: ServerConfiguration, cards: CardLibrary, metrics: ServerMetrics,
         clock: any ServerClock = SystemClock(), render: @escaping Render = FrameService.renderOnRenderThread) {
        self.configuration = configuration
        self.cards = cards
        self.metrics = metrics
        self.clock = clock
        renderFile = render
        // What the textures and the cache leave of the budget is for frames being rendered.
        let gate = AdmissionGate(slots: configuration.maxInflight,
                                 byteBudget: configuration.memory.bytes - configuration.cacheBytes - cards.textureBytes,
                                 maxWaiting: max(64, configuration.maxInflight * 32), clock: clock)
        self.gate = gate
        // A cached frame queued for a slow client is counted in the cache's share only.
        cache = FrameCache(capacity: configuration.cacheBytes, clock: clock, onChange: { metrics.cacheBytes.record($0) },
                           onKeep: { frame, kept in gate.setCached(key: WriteProgressHandler.key(of: frame), kept) })
        signature = configuration.key.map(URLSignature.init(key:))
        metrics.textureBytes.record(cards.textureBytes)
    }

    /// The answer for card `id` in `format` with the raw query `rawQuery`, given the ETags the
    /// client has.
    func answer(id: String, format: StillFormat = .png, rawQuery: String, ifNoneMatch: String?) async throws(Problem) -> Answer {
        // An unsigned URL to a server with a key is refused before its query is looked at.
        if signature != nil, !RenderQuery.hasSignature(rawQuery: rawQuery) {
            throw Problem.badSignature("this server renders signed URLs only: add sig, the signature `kira sign` makes")
        }
        let query = try parse(rawQuery)
        try checkSignature(query, path: RenderRoute.path(id: id, format: format))
        guard let card = cards[id] else { throw Problem.unknownCard(id, known: Array(cards.cards.keys)) }
        let request = query.request
        let etag = Self.etag(card: card, request: request, format: format, kiraVersion: configuration.kiraVersion)
        // A cached frame passed the checks below when it was made, with this server's limits, and
        // its ETag names everything they read: a hit skips them (2% of its CPU time, perf, 2-core Zen 4).
        if let frame = cache.cached(etag) {
            if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
            metrics.cacheHits.increment()
            return .frame(frame, etag: etag, source: .hit)
        }
        let prepared: PreparedFrame
        do {
            prepared = try request.prepare(card.faces, format: format, budget: nil)
        } catch {
            throw Problem.badParameter(error, honouredBy: RenderRoute.honouring(request, insteadOf: format).map(RenderRoute.fileName))
        }
        let frameBytes = try checkCost(of: request, scene: prepared.scene, card: card)
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
        do {
            let deadline = clock.now + configuration.deadline
            let (frame, source) = try await cache.frame(for: etag, deadline: deadline) { [self] in
                try await render(prepared, frameBytes: frameBytes)
            }
            switch source {
            case .hit: metrics.cacheHits.increment()
            case .miss: metrics.cacheMisses.increment()
            case .joined: metrics.cacheJoins.increment()
            }
            return .frame(frame, etag: etag, source: source)
        } catch {
            throw slotProblem(error) { error in
                switch error {
                case let error as RenderError: Problem.internal("the frame could not be rendered: \(error)")
                case let error as ImageFileError: Problem.internal("the frame could not be encoded: \(error)")
                default: Problem.internal("the frame could not be made: \(error)")
                }
            }
        }
    }

    /// Card `id`'s card file (its faces as Kira renders them, gzip-compressed: what the browser's
    /// Kira renders from), made on first request and kept in the frame cache, within the same
    /// render slots and memory as frames.
    func cardFile(id: String, ifNoneMatch: String?) async throws(Problem) -> Answer {
        guard let card = cards[id] else { throw Problem.unknownCard(id, known: Array(cards.cards.keys)) }
        let etag = "\"" + ContentHash.sha256("kira \(configuration.kiraVersion)\ncard file\n\(card.contentHash)").prefix(32) + "\""
        if let ifNoneMatch, Self.matches(ifNoneMatch, etag) { return .notModified(etag: etag) }
        do {
            // At its peak: the raw file beside the textures, and its compressed copy (smaller).
            let bytes = 2 * card.faces.byteCount
            let (file, source) = try await cache.frame(for: etag, deadline: clock.now + configuration.deadline) { [self] in
                ByteBuffer(bytes: try await admitted(bytes: bytes) { try await Self.onRenderThread { card.faces.cardFile } })
            }
            return .frame(file, etag: etag, source: source)
        } catch {
            throw slotProblem(error) { Problem.internal("the card file could not be made: \($0)") }
        }
    }

    /// The problem for cached work in a render slot that failed: an overloaded server, a deadline
    /// passed and a client gone are answered as such (the first two counted); anything else is
    /// `failure`'s.
    private func slotProblem(_ error: any Error, failure: (any Error) -> Problem) -> Problem {
        switch error {
        case is AdmissionGate.Overloaded:
            metrics.recordRejection("overloaded")
            return Problem.overloaded(waited: configuration.maxWait)
        case is FrameCache.DeadlineExceeded:
            metrics.recordRejection("deadline")
            return Problem.deadline(configuration.deadline)
        case is CancellationError:
            return Problem.clientClosed
        default:
            return failure(error)
        }
    }

    /// A live preview's frame of `card` as `request` describes it, made by `renderer` in
    /// `encoding` for the page's `window` of the canvas: within the same limits and render slots
    /// as the API's frames, but never cached (a live pose rarely repeats).
    func liveFrame(_ request: RenderRequest, card: CardLibrary.Card, window: ImageRegion, renderer: LiveRenderer, encoding: LiveEncoding)
        async throws(Problem) -> LiveRenderer.Frame {
        // The library's checks, as for the API's frames (raw pixels are checked as a PNG: 8 or 16 bits, no quality).
        let scene: FrameScene
        do {
            scene = try request.prepare(card.faces, format: encoding.format ?? .png, budget: nil).scene
        } catch {
            throw Problem.badParameter(error)
        }
        let frameBytes = try checkCost(of: request, scene: scene, card: card)
        do {
            return try await admitted(bytes: frameBytes) {
                try await Self.onRenderThread { try renderer.frame(request, scene: scene, window: window, encoding: encoding) }
            }
        } catch is AdmissionGate.Overloaded {
            metrics.recordRejection("overloaded")
            throw Problem.overloaded(waited: configuration.maxWait)
        } catch {
            throw Problem.internal("the frame could not be made: \(error)")
        }
    }

    /// The URL of `request`'s frame of card `id` as the API serves it: canonical, and signed
    /// when the server has a key.
    func url(of request: RenderRequest, id: String) -> String {
        let path = RenderRoute.path(id: id, format: .png)
        return signature?.signedURL(path: path, request: request) ?? URLSignature.canonical(path: path, request: request)
    }

    private func parse(_ rawQuery: String) throws(Problem) -> RenderQuery {
        do {
            return try RenderQuery(rawQuery: rawQuery)
        } catch {
            throw rawQuery.utf8.count > RenderQuery.maxLength ? Problem.queryTooLong(error) : Problem.badParameter(error)
        }
    }

    private func checkSignature(_ query: RenderQuery, path: String) throws(Problem) {
        guard let signature else { return }
        guard let given = query.signature else { throw Problem.badSignature("this server renders signed URLs only: add sig") }
        guard signature.isValid(given, for: URLSignature.canonical(path: path, request: query.request)) else {
            throw Problem.badSignature("sig is not the signature of this path and query with this server's key")
        }
    }

    /// Refuses a canvas over the server's cap or a frame whose render could never fit the memory
    /// left for frames; returns the render's bytes.
    private func checkCost(of request: RenderRequest, scene: FrameScene, card: CardLibrary.Card) throws(Problem) -> Int {
        let cap = configuration.maxCanvas
        guard scene.canvasWidth <= cap.width, scene.canvasHeight <= cap.height else {
            let parameter = request.canvas.size == nil ? "scale" : "size"
            throw Problem.tooLarge("the canvas would be \(scene.canvasWidth)x\(scene.canvasHeight), over this server's limit of "
                                   + "\(cap.width)x\(cap.height): give a smaller \(parameter)", parameter: parameter)
        }
        // The textures are held already: the library's figure for what a render adds to them.
        let frameBytes = request.estimatedWorkingBytes(for: scene, residentCard: card.faces)
        guard frameBytes <= gate.byteBudget else {
            throw Problem.tooLarge("a \(scene.canvasWidth)x\(scene.canvasHeight) frame needs about \(MemoryBudget.describe(frameBytes)) "
                                   + "to render, over the \(MemoryBudget.describe(gate.byteBudget)) this server has for frames: give a smaller size",
                                   parameter: request.canvas.size == nil ? "scale" : "size")
        }
        return frameBytes
    }

    /// Renders and encodes a frame's file, once admitted.
    private func render(_ frame: PreparedFrame, frameBytes: Int) async throws -> ByteBuffer {
        let threads = configuration.renderThreads
        return ByteBuffer(bytes: try await admitted(bytes: frameBytes) { try await renderFile(frame, threads) })
    }

    /// Renders and encodes a frame's file with a renderer of its own (its scratch is freed with it,
    /// so idle memory stays small), on the blocking pool (``onRenderThread(_:)``).
    static func renderOnRenderThread(_ frame: PreparedFrame, threads: Int) async throws -> [UInt8] {
        try await onRenderThread { try frame.encode(try frame.render(with: FrameRenderer(threads: threads))) }
    }

    /// Runs `work` on SwiftNIO's blocking pool (a thread per core, kept): not Swift's cooperative
    /// pool nor Dispatch's, whose few threads answer the health check and cached frames and fire
    /// the deadlines. A thread made per render cost 0.88x of the uncached requests/s at 8
    /// connections (61.8 against 70.0, 800x1000 frames, 2-core Zen 4).
    static func onRenderThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        // The result comes back in a box emptied here, so that the caller holds it alone: a value
        // the pool thread hands back is still referenced there for a moment, and a live frame's
        // header put in front of its image copied all of it (0.9 ms of CPU a 630-wide raw frame,
        // 2-core Zen 4).
        let handoff = Locked<T?>(nil)
        // The future's form: a request that gives up leaves the render to finish for the cache.
        try await NIOThreadPool.singleton.runIfActive(eventLoop: MultiThreadedEventLoopGroup.singleton.any()) {
            try handoff.withLock { $0 = try work() }
        }.get()
        guard let result = handoff.withLock({ $0.take() }) else { throw CancellationError() }
        return result
    }

    /// Runs `work` (a render of about `frameBytes`) once admitted.
    private func admitted<T: Sendable>(bytes frameBytes: Int, _ work: @Sendable () async throws -> T) async throws -> T {
        metrics.waiting.increment()
        do {
            try await gate.admit(bytes: frameBytes, wait: configuration.maxWait)
            metrics.waiting.decrement()
        } catch {
            metrics.waiting.decrement()
            throw error
        }
        metrics.inFlight.increment()
        defer {
            metrics.inFlight.decrement()
            gate.release(bytes: frameBytes)
        }
        let start = clock.now
        let result = try await work()
        metrics.renders.increment()
        metrics.renderDuration.record(duration: clock.now - start)
        return result
    }

    /// A strong ETag from what the frame depends on: the card's content, the canonical values,
    /// the format (a PNG's ETag names no format, as before there were others) and Kira's version.
    static func etag(card: CardLibrary.Card, request: RenderRequest, format: StillFormat = .png, kiraVersion: String) -> String {
        let values = request.values.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let route = format == .png ? "" : "\(RenderRoute.fileName(format))\n"
        return "\"" + ContentHash.sha256("kira \(kiraVersion)\n\(card.contentHash)\n\(route)\(values)").prefix(32) + "\""
    }

    /// Whether an `If-None-Match` header names `etag` (weak comparison, as RFC 9110 asks for it).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { tag in
            var tag = tag.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
#endif
