import KiraPNG
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraFormats
import KiraImage
import KiraRender
import KiraRequest
import KiraServer
import KiraServerAPI
import Testing

/// A URL is held to the rules `kira render` is held to, by the library's one prepare step: what a
/// route cannot honour is refused, and what it can is honoured.
@Suite struct QueryRuleTests {
    static let numberNames = RenderRequest.parameters.filter { $0.kind == .number || $0.kind == .integer }.map(\.name)

    /// C's strtod stops at a NUL; a value with one is not a number.
    @Test func aNumberWithANULIsRefused() async throws {
        for name in Self.numberNames {
            try await BadInputTests.expectProblem("/v1/cards/sample/render.png?\(name)=8%00abc", status: .badRequest,
                                                  kind: "bad-parameter", parameter: name)
        }
    }

    /// Kira scales down only: a width or height over the canvas is the library's 400, not a 500.
    @Test(arguments: ["width=65", "height=65", "width=16384", "height=16384", "width=65&height=10"])
    func aScaleOverTheCanvasIsRefused(query: String) async throws {
        let name = String(query.prefix { $0 != "=" })
        try await BadInputTests.expectProblem("/v1/cards/sample/render.png?size=64x64&\(query)", status: .badRequest,
                                              kind: "bad-parameter", parameter: name)
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let problem = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.webp?size=64x64&\(query)", method: .get))
            #expect((problem["detail"] as? String)?.contains("64×64") == true, "\(problem)")
        }
    }

    /// A PNG is lossless: quality and lossless are refused on render.png, naming the route that honours them.
    @Test func qualityOnAPNGNamesTheRoutesThatHonourIt() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let quality = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.png?quality=80", method: .get))
            #expect(quality["status"] as? Int == 400)
            #expect(quality["parameter"] as? String == "quality")
            #expect((quality["detail"] as? String)?.hasSuffix("render.webp or render.jpg honours it") == true, "\(quality)")
            let lossless = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.png?lossless=true", method: .get))
            #expect(lossless["parameter"] as? String == "lossless")
            #expect((lossless["detail"] as? String)?.hasSuffix("; render.webp honours it") == true, "\(lossless)")
            let depth = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.jpg?depth=16", method: .get))
            #expect((depth["detail"] as? String)?.hasSuffix("; render.png honours it") == true, "\(depth)")
            let zero = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.jpg?quality=0", method: .get))
            #expect((zero["detail"] as? String)?.hasSuffix("; render.webp honours it") == true, "\(zero)")
        }
    }

    /// render.webp and render.jpg store the frame as `kira render -o x.webp / x.jpg` does, byte for byte.
    @Test(arguments: [("render.webp", "image/webp", StillFormat.webp, [("quality", "80")]),
                      ("render.webp", "image/webp", StillFormat.webp, [("lossless", "true")]),
                      ("render.jpg", "image/jpeg", StillFormat.jpeg, [("quality", "60"), ("width", "32")])])
    func stillRoutesHonourTheirSettings(route: String, mediaType: String, format: StillFormat, values: [(String, String)]) async throws {
        let all = [("size", "48x64")] + values
        let request = try RenderRequest(values: all)
        let faces = try CardTextures().load { _, _ in fatalError("the sample card reads no file") }
        let expected = try request.prepare(faces, format: format, budget: nil)
        let bytes = try expected.encode(try expected.render(with: FrameRenderer()))
        let app = try buildApplication(ServerFixtures.configuration())
        try await RouterClient.withClient(for: app) { client in
            let query = all.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            let response = try await client.execute(uri: "/v1/cards/sample/\(route)?\(query)", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == mediaType)
            #expect(Array(buffer: response.body) == bytes)
            let png = try await client.execute(uri: "/v1/cards/sample/render.png?size=48x64", method: .get)
            #expect(png.status == .ok)
            #expect(png.headers[.eTag] != response.headers[.eTag])
        }
    }

    /// Each route has its own ETag; the same values on the same route keep theirs.
    @Test func formatsHaveTheirOwnETags() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            var tags: [String] = []
            for uri in ["/v1/cards/sample/render.png?size=40x40", "/v1/cards/sample/render.webp?size=40x40",
                        "/v1/cards/sample/render.jpg?size=40x40", "/v1/cards/sample/render.webp?size=40x40&quality=50",
                        "/v1/cards/sample/render.webp?size=40x40&quality=85"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok, "\(uri)")
                tags.append(response.headers[.eTag] ?? "")
            }
            // quality=85 is WebP's default quality, but an explicit value: a value of its own.
            #expect(Set(tags).count == tags.count, "\(tags)")
        }
    }

    /// docs/serve.md: without sig the answer is 403 before the query is even parsed, bad
    /// percent-encoding included.
    @Test(arguments: ["tilt_x=%zz", "%zz=1", "tilt_x=%", "si%67=%zz&x", "si%67=abc&tilt_x=%zz"])
    func anUnsignedURLIs403BeforeItsQueryIsParsed(query: String) async throws {
        let configuration = ServerFixtures.configuration { $0.key = ServerFixtures.key }
        let app = try ServerFixtures.stubbedApplication(configuration)
        try await RouterClient.withClient(for: app) { client in
            let response = try await client.execute(uri: "/v1/cards/sample/render.png?\(query)", method: .get)
            // A `sig` spelled with an escape is a signature, and the query is then parsed: 400;
            // one whose value is not percent-encoded correctly is none.
            let expected: HTTPResponse.Status = query.hasPrefix("si%67=abc") ? .badRequest : .forbidden
            #expect(response.status == expected, "\(query): \(response.status)")
        }
    }

    @Test func aSignedStillRouteRenders() async throws {
        let signer = URLSignature(key: ServerFixtures.key)
        let webp = try signer.sign(url: "/v1/cards/sample/render.webp?size=40x40&quality=70")
        #expect(webp.hasPrefix("/v1/cards/sample/render.webp?"))
        // The signature covers the route: the same query signed for render.png does not open render.webp.
        let png = try signer.sign(url: "/v1/cards/sample/render.png?size=40x40")
        #expect(throws: RequestError.self) { try signer.sign(url: "/v1/cards/sample/render.png?quality=70") }
        let app = try ServerFixtures.stubbedApplication(ServerFixtures.configuration { $0.key = ServerFixtures.key })
        try await RouterClient.withClient(for: app) { client in
            let moved = png.replacingOccurrences(of: "render.png", with: "render.webp")
            let statuses = [try await client.execute(uri: webp, method: .get).status, try await client.execute(uri: png, method: .get).status,
                            try await client.execute(uri: moved, method: .get).status]
            #expect(statuses == [.ok, .ok, .forbidden])
        }
    }
}
#endif
