#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraServer
import Testing

/// Bounded work: renders at once, waiting, deadlines, the cache's bytes, one render per frame.
@Suite struct LimitsTests {
    /// The statuses and headers of `uris` requested all at once.
    static func concurrently(_ uris: [String], _ client: some HTTPTestClient) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for uri in uris { group.addTask { try await client.execute(uri: uri, method: .get) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func beyondTheSlotsAndTheWaitRequestsAre503WithRetryAfter() async throws {
        let app = try buildApplication(ServerFixtures.configuration {
            $0.maxInflight = 1
            $0.maxWait = .zero
        })
        try await RouterClient.withClient(for: app) { client in
            let uris = (0..<8).map { "/v1/cards/sample/render.png?tilt_x=\($0)&size=300x400" }
            let responses = try await Self.concurrently(uris, client)
            #expect(responses.allSatisfy { $0.status == .ok || $0.status == .serviceUnavailable })
            let refused = responses.filter { $0.status == .serviceUnavailable }
            #expect(!refused.isEmpty)
            #expect(responses.contains { $0.status == .ok })
            for response in refused {
                #expect(response.headers[.retryAfter] == "1", "\(response.headers) \(String(buffer: response.body))")
                let problem = try ServerFixtures.problem(response)
                #expect(problem["type"] as? String == "/problems/overloaded", "\(problem)")
            }
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_rejected_total{reason=\"overloaded\"} \(refused.count)\n"), "\(metrics)")
            // Nothing is left holding a slot: the server renders again.
            #expect(try await client.execute(uri: "/v1/cards/sample/render.png?size=10x10", method: .get).status == .ok)
        }
    }

    @Test func identicalRequestsInFlightRenderOnce() async throws {
        let app = try buildApplication(ServerFixtures.configuration { $0.maxInflight = 2 })
        try await RouterClient.withClient(for: app) { client in
            let uri = "/v1/cards/sample/render.png?tilt_x=12&size=300x400"
            let responses = try await Self.concurrently(Array(repeating: uri, count: 10), client)
            #expect(responses.allSatisfy { $0.status == .ok }, "\(responses.map { "\($0.status) \($0.headers) \(String(buffer: $0.body).prefix(300))" })")
            #expect(Set(responses.map(\.bytes)).count == 1)
            #expect(responses.filter { $0.cacheSource == "miss" }.count == 1)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_renders_total 1\n"))
        }
    }

    /// A request past its deadline is a 503; its render goes on and serves the next request.
    @Test func aDeadlineIs503AndTheRenderIsNotWasted() async throws {
        let app = try buildApplication(ServerFixtures.configuration { $0.deadline = .milliseconds(1) })
        try await RouterClient.withClient(for: app) { client in
            let uri = "/v1/cards/sample/render.png?tilt_y=33&size=400x500"
            let late = try await client.execute(uri: uri, method: .get)
            #expect(late.status == .serviceUnavailable)
            #expect(try ServerFixtures.problem(late)["type"] as? String == "/problems/deadline")
            var cached: TestResponse?
            for _ in 0..<200 where cached == nil {
                try await Task.sleep(for: .milliseconds(50))
                let response = try await client.execute(uri: uri, method: .get)
                if response.status == .ok { cached = response }
            }
            #expect(cached?.cacheSource == "hit")
        }
    }

    /// The cache keeps at most its bytes, dropping the least recently used frame first.
    @Test func theCacheIsBoundedInBytesAndLeastRecentlyUsedGoesFirst() async throws {
        // Frames a hundredth of a degree apart differ in a few bytes: room for three, not four.
        let values = { @Sendable (i: Int) in [("tilt_x", "0.0\(i)"), ("size", "300x400")] }
        let frameSize = try ServerFixtures.expectedFrame(values(0)).count
        let capacity = frameSize * 7 / 2
        let app = try buildApplication(ServerFixtures.configuration { $0.cacheBytes = capacity })
        try await RouterClient.withClient(for: app) { client in
            let uri = { (i: Int) in "/v1/cards/sample/render.png?" + values(i).map { "\($0.0)=\($0.1)" }.joined(separator: "&") }
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
