#if Server
import Foundation
import HTTPTypes
import Hummingbird
@testable import KiraServer
import Testing

/// Every path has one spelling: an empty segment or a trailing slash is 404 at every route, so
/// that a signed URL is valid under one spelling only and a cache in front keeps one entry.
@Suite struct PathSpellingTests {
    /// Every route the server has, as served.
    static let routes = ["/healthz", "/readyz", "/metrics", "/", "/live",
                         "/v1/cards/sample/render.png", "/v1/cards/sample/render.webp", "/v1/cards/sample/render.jpg"]

    /// The other spellings of `path` that Hummingbird's router, which skips empty segments, takes
    /// for it.
    static func respellings(of path: String) -> [String] {
        guard path != "/" else { return ["//", "///"] }
        let inner = path.replacingOccurrences(of: "/", with: "//")
        return [path + "/", "/" + path, inner, inner + "/", path + "//"]
    }

    @Test(arguments: routes)
    func otherSpellingsAre404(route: String) async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let query = route.contains("render") ? "?size=8x8" : ""
            // The one spelling is served (the live preview's WebSocket answers a plain GET with a problem of its own).
            let served = try await client.execute(uri: route + query, method: .get)
            #expect(served.status != .notFound, "\(route)")
            for spelling in Self.respellings(of: route) {
                for method in [HTTPRequest.Method.get, .head, .delete] {
                    let response = try await client.execute(uri: spelling + query, method: method)
                    #expect(response.status == .notFound, "\(method) \(spelling)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(method) \(spelling)")
                    if method != .head {
                        #expect(try ServerFixtures.problem(response)["type"] as? String == "/problems/not-found", "\(spelling)")
                    }
                }
            }
        }
    }

    /// A signature covers exactly one path: the signed URL spelled with an empty segment or a
    /// trailing slash is not a frame.
    @Test func aSignedURLIsValidUnderOneSpelling() async throws {
        let app = try ServerFixtures.stubbedApplication(ServerFixtures.configuration { $0.key = ServerFixtures.key })
        let signed = try URLSignature(key: ServerFixtures.key).sign(url: "/v1/cards/sample/render.png?tilt_x=8&size=100x100")
        let path = String(signed.prefix { $0 != "?" }), query = String(signed.drop { $0 != "?" })
        try await RouterClient.withClient(for: app) { client in
            let served = try await client.execute(uri: signed, method: .get)
            #expect(served.status == .ok)
            for spelling in Self.respellings(of: path) {
                let response = try await client.execute(uri: spelling + query, method: .get)
                #expect(response.status == .notFound, "\(spelling)")
            }
        }
    }

    @Test(arguments: ["/", "/healthz", "/v1/cards/sample/render.png", "*"])
    func theRuleItself(path: String) {
        #expect(PathSpellingMiddleware<BasicRequestContext>.isCanonical(path))
        if path.hasPrefix("/") {
            for spelling in Self.respellings(of: path) {
                #expect(!PathSpellingMiddleware<BasicRequestContext>.isCanonical(spelling), "\(spelling)")
            }
        }
    }
}
#endif
