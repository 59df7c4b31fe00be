#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraRequest
import KiraServer
import Testing

/// The render route without sockets: frames, ETags, 304s, the cache and its headers.
@Suite struct RenderRouteTests {
    @Test func framesAreTheLibrarysBytesWithCacheHeaders() async throws {
        let app = try buildApplication(ServerFixtures.configuration())
        try await RouterClient.withClient(for: app) { client in
            let response = try await client.execute(uri: "/v1/cards/sample/render.png?tilt_x=8&tilt_y=-14&size=300x400&compression=fast", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.headers[.eTag]?.hasPrefix("\"") == true)
            #expect(response.cacheSource == "miss")
            let expected = try ServerFixtures.expectedFrame([("tilt_x", "8"), ("tilt_y", "-14"), ("size", "300x400"), ("compression", "fast")])
            // Compared as one Bool: a failed comparison of arrays this long makes Swift Testing diff them for minutes.
            #expect(response.bytes == expected ? true : false, "\(response.bytes.count) bytes against the library's \(expected.count)")
        }
    }

    @Test func aRepeatedFrameComesFromTheCacheWithTheSameETag() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let first = try await client.execute(uri: "/v1/cards/sample/render.png?flip=30&size=200x200", method: .get)
            // The same frame spelled differently: canonical values make one ETag and one cache entry.
            let second = try await client.execute(uri: "/v1/cards/sample/render.png?size=200x200&flip=30.0", method: .get)
            #expect(first.cacheSource == "miss")
            #expect(second.cacheSource == "hit")
            #expect(first.headers[.eTag] == second.headers[.eTag])
            #expect(first.bytes == second.bytes ? true : false)
            let other = try await client.execute(uri: "/v1/cards/sample/render.png?flip=31&size=200x200", method: .get)
            #expect(other.headers[.eTag] != first.headers[.eTag])
        }
    }

    @Test(arguments: ["ETAG", "W/ETAG", "\"other\", ETAG", "*"])
    func ifNoneMatchGives304WithoutABody(header: String) async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let uri = "/v1/cards/sample/render.png?tilt_y=20&size=120x160"
            let etag = try #require(try await client.execute(uri: uri, method: .get).headers[.eTag])
            let response = try await client.execute(uri: uri, method: .get,
                                                    headers: [.ifNoneMatch: header.replacingOccurrences(of: "ETAG", with: etag)])
            #expect(response.status == .notModified)
            #expect(response.body.readableBytes == 0)
            #expect(response.headers[.eTag] == etag)
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
        }
    }

    @Test func aStaleETagGetsTheFrame() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let response = try await client.execute(uri: "/v1/cards/sample/render.png?size=50x50", method: .get,
                                                    headers: [.ifNoneMatch: "\"0123\""])
            #expect(response.status == .ok)
            #expect(response.body.readableBytes > 0)
        }
    }

    @Test func cardsFromTheFolderAreServedByTheirFolderName() async throws {
        let cards = try ServerFixtures.CardFolder()
        defer { cards.remove() }
        try cards.addCard("holo-01", files: ["art.png", "mask.png"])
        try cards.addCard("plain_2")
        let app = try buildApplication(ServerFixtures.configuration { $0.cardsDirectory = cards.path })
        try await RouterClient.withClient(for: app) { client in
            for id in ["holo-01", "plain_2", "sample"] {
                let response = try await client.execute(uri: "/v1/cards/\(id)/render.png?size=80x100", method: .get)
                #expect(response.status == .ok, "\(id)")
            }
            let faces = try CardTextures(art: cards.path + "/holo-01/art.png", mask: cards.path + "/holo-01/mask.png").load()
            let response = try await client.execute(uri: "/v1/cards/holo-01/render.png?tilt_x=5", method: .get)
            let expected = try ServerFixtures.expectedFrame([("tilt_x", "5")], card: faces)
            #expect(response.bytes == expected ? true : false, "\(response.bytes.count) bytes against the library's \(expected.count)")
        }
    }

    @Test func theMetricsCountRequestsRendersAndTheCache() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            for _ in 0..<2 { try await client.execute(uri: "/v1/cards/sample/render.png?size=64x64", method: .get) }
            try await client.execute(uri: "/v1/cards/sample/render.png?tilt_x=999", method: .get)
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("kira_renders_total 1"))
            #expect(metrics.contains("kira_cache_hits_total 1"))
            #expect(metrics.contains("kira_cache_misses_total 1"))
            #expect(metrics.contains("kira_http_requests_total{route=\"/v1/cards/{id}/render.png\",status=\"200\"} 2"))
            #expect(metrics.contains("kira_http_requests_total{route=\"/v1/cards/{id}/render.png\",status=\"400\"} 1"))
            #expect(metrics.contains("kira_http_request_duration_seconds_bucket{route=\"/v1/cards/{id}/render.png\",status=\"200\""))
            #expect(metrics.contains("kira_cache_bytes "))
            #expect(metrics.contains("kira_renders_in_flight "))
        }
    }

    @Test func healthAndReadiness() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            #expect(String(buffer: health.body) == "ok\n")
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)
        }
    }
}
#endif
