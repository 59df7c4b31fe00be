#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraFiles
import KiraImage
@testable import KiraServer
import Testing

/// Bounded work: renders at once, waiting, deadlines, the cache's bytes, one render per frame.
@Suite struct LimitsTests {
    /// A server whose renders the test holds and whose time it moves.
    static func withHeldServer(_ change: (inout ServerConfiguration) -> Void = { _ in },
                               _ body: @Sendable (any HTTPTestClient, HeldRenders, ManualClock) async throws -> Void)
        async throws {
        let held = HeldRenders(), clock = ManualClock()
        let app = try buildApplication(ServerFixtures.configuration(change), clock: clock, render: held.render)
        try await RouterClient.withClient(for: app) { client in try await body(client, held, clock) }
    }

    /// `uris` requested side by side while `meanwhile` runs; their responses.
    static func whileRequesting(_ uris: [String], _ client: some HTTPTestClient,
                                meanwhile: @escaping @Sendable () async throws -> Void) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse?.self) { group in
            for uri in uris { group.addTask { try await client.execute(uri: uri, method: .get) } }
            group.addTask {
                try await meanwhile()
                return nil
            }
            return try await group.reduce(into: []) { if let response = $1 { $0.append(response) } }
        }
    }

    @Test func beyondTheSlotsAndTheWaitRequestsAre503WithRetryAfter() async throws {
        try await Self.withHeldServer({
            $0.maxInflight = 1
            $0.maxWait = .seconds(2)
        }) { client, held, clock in
            let uris = (0..<8).map { "/v1/cards/sample/render.png?tilt_x=\($0)&size=300x400" }
            let responses = try await Self.whileRequesting(uris, client) {
                // One renders; seven wait for its slot (each with a deadline and a wait on the clock).
                try await held.waitForStarts(1)
                try await clock.waitForSleepers(8 + 7)
                clock.advance(by: .seconds(2))
                // The wait is over for the seven; then the one render ends.
                for _ in 0..<200 where clock.sleepers > 1 { try await Task.sleep(for: .milliseconds(5)) }
                held.release(with: [1, 2, 3])
            }
            #expect(responses.filter { $0.status == .ok }.count == 1)
            let refused = responses.filter { $0.status == .serviceUnavailable }
            #expect(refused.count == 7)
            for response in refused {
                #expect(response.headers[.retryAfter] == "1", "\(response.headers) \(String(buffer: response.body))")
                let problem = try ServerFixtures.problem(response)
                #expect(problem["type"] as? String == "/problems/overloaded", "\(problem)")
            }
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_rejected_total{reason=\"overloaded\"} 7\n"), "\(metrics)")
            // Nothing is left holding a slot: the server renders again.
            let again = try await Self.whileRequesting(["/v1/cards/sample/render.png?size=10x10"], client) {
                try await held.waitForStarts(2)
                held.release(with: [4])
            }
            #expect(again.first?.status == .ok)
        }
    }

    @Test func identicalRequestsInFlightRenderOnce() async throws {
        try await Self.withHeldServer({ $0.maxInflight = 2 }) { client, held, clock in
            let uri = "/v1/cards/sample/render.png?tilt_x=12&size=300x400"
            let responses = try await Self.whileRequesting(Array(repeating: uri, count: 10), client) {
                // All ten wait, each at its deadline: then the one render ends.
                try await held.waitForStarts(1)
                try await clock.waitForSleepers(10)
                held.release(with: [9, 8, 7])
            }
            #expect(responses.allSatisfy { $0.status == .ok && $0.bytes == [9, 8, 7] }, "\(responses.map(\.status))")
            #expect(responses.filter { $0.cacheSource == "miss" }.count == 1)
            #expect(responses.filter { $0.cacheSource == "joined" }.count == 9)
            #expect(held.started == 1)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_renders_total 1\n"))
        }
    }

    /// A request past its deadline is a 503; its render goes on and serves the next request.
    @Test func aDeadlineIs503AndTheRenderIsNotWasted() async throws {
        try await Self.withHeldServer({ $0.deadline = .seconds(10) }) { client, held, clock in
            let uri = "/v1/cards/sample/render.png?tilt_y=33&size=400x500"
            let late = try await Self.whileRequesting([uri], client) {
                try await held.waitForStarts(1)
                try await clock.waitForSleepers(1)
                clock.advance(by: .seconds(10))
            }
            #expect(late.first?.status == .serviceUnavailable)
            #expect(try ServerFixtures.problem(try #require(late.first))["type"] as? String == "/problems/deadline")
            held.release(with: [5, 5])
            // The render's end reaches the cache just after the release: until then a request joins it.
            var cached: TestResponse?
            for _ in 0..<200 where cached == nil {
                let response = try await client.execute(uri: uri, method: .get)
                if response.cacheSource == "hit" { cached = response } else { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(cached?.cacheSource == "hit")
            #expect(cached?.bytes == [5, 5])
            #expect(held.started == 1)
        }
    }

    /// Deadlines are answered while renders keep every processor busy: the renders run on the
    /// server's render threads, and here spin until every request has had its 503.
    @Test(.timeLimit(.minutes(2))) func deadlinesHoldWhileRendersKeepTheProcessorsBusy() async throws {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        let started = Locked(0), stop = Locked(false)
        defer { stop.withLock { $0 = true } }
        let render: FrameService.Render = { _, _ in
            try await FrameService.onRenderThread {
                started.withLock { $0 += 1 }
                var spins = 0
                while !stop.withLock({ $0 }) { spins &+= 1 }
                return [UInt8(truncatingIfNeeded: spins)]
            }
        }
        let clock = ManualClock()
        let configuration = ServerFixtures.configuration {
            $0.deadline = .seconds(1)
            $0.maxInflight = processors
        }
        let app = try buildApplication(configuration, clock: clock, render: render)
        try await RouterClient.withClient(for: app) { client in
            let uris = (0..<processors).map { "/v1/cards/sample/render.png?tilt_x=\($0)" }
            let responses = try await Self.whileRequesting(uris, client) {
                for _ in 0..<12_000 where started.withLock({ $0 }) < processors { try await Task.sleep(for: .milliseconds(5)) }
                try await clock.waitForSleepers(processors)
                clock.advance(by: .seconds(1))
            }
            // A deadline that waited for a render would never come: these spin until it has.
            #expect(responses.allSatisfy { $0.status == .serviceUnavailable }, "\(responses.map(\.status))")
            #expect(started.withLock { $0 } == processors)
        }
    }

    /// With no wait allowed, a request beyond the render slots is refused at once.
    @Test func withoutAWaitARequestBeyondTheSlotsIs503AtOnce() async throws {
        try await Self.withHeldServer({
            $0.maxInflight = 1
            $0.maxWait = .zero
        }) { client, held, _ in
            let uris = (0..<6).map { "/v1/cards/sample/render.png?flip=\($0 * 10)&size=300x400" }
            let responses = try await Self.whileRequesting(uris, client) {
                // One renders; the other five are refused without waiting for it.
                try await held.waitForStarts(1)
                for _ in 0..<12_000 {
                    let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                    if metrics.contains("kira_rejected_total{reason=\"overloaded\"} 5\n") { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                held.release(with: [1])
            }
            #expect(responses.filter { $0.status == .ok }.count == 1)
            #expect(responses.filter { $0.status == .serviceUnavailable }.count == 5, "\(responses.map(\.status))")
            #expect(held.started == 1)
        }
    }

    /// The cache keeps at most its bytes, dropping the least recently used frame first.
    @Test func theCacheIsBoundedInBytesAndLeastRecentlyUsedGoesFirst() async throws {
        // Every frame is 1000 bytes: room for three, not four.
        let capacity = 3500
        let app = try buildApplication(ServerFixtures.configuration { $0.cacheBytes = capacity }, clock: SystemClock(),
                                       render: immediateRender([UInt8](repeating: 1, count: 1000)))
        try await RouterClient.withClient(for: app) { client in
            let uri = { (i: Int) in "/v1/cards/sample/render.png?tilt_x=0.0\(i)&size=300x400" }
            for i in 0..<3 { #expect(try await client.execute(uri: uri(i), method: .get).cacheSource == "miss") }
            // Frame 0 is used again, so frame 1 is now the least recent and goes first.
            #expect(try await client.execute(uri: uri(0), method: .get).cacheSource == "hit")
            #expect(try await client.execute(uri: uri(3), method: .get).cacheSource == "miss")
            #expect(try await client.execute(uri: uri(0), method: .get).cacheSource == "hit")
            #expect(try await client.execute(uri: uri(2), method: .get).cacheSource == "hit")
            #expect(try await client.execute(uri: uri(1), method: .get).cacheSource == "miss")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let held = metrics.split(separator: "\n").first { $0.hasPrefix("kira_cache_bytes ") }.flatMap { Double($0.split(separator: " ")[1]) }
            #expect(try #require(held) <= Double(capacity))
        }
    }

    @Test func aCacheOverTheMemoryBudgetIsRefusedAtStartUp() {
        #expect(throws: ServerSetupError.self) {
            try buildApplication(ServerFixtures.configuration {
                $0.memory = .init(bytes: 512 << 20)
                $0.cacheBytes = 512 << 20
            })
        }
    }
}
#endif
