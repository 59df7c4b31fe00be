#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraRequest
import KiraServer
import Testing

/// Every bad input is a problem+json answer that says what is wrong, and the server goes on
/// serving after it (each test ends with a frame from the same server, made by a stand-in render).
@Suite struct BadInputTests {
    /// Checks the answer to `uri`, then that the server still renders.
    static func expectProblem(_ uri: String, status: HTTPResponse.Status, kind: String, parameter: String? = nil,
                              configuration: ServerConfiguration = ServerFixtures.configuration(),
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await expectProblems([uri], status: status, kind: kind, parameter: parameter, configuration: configuration,
                                 sourceLocation: sourceLocation)
    }

    /// Checks the answer to each of `uris` from one server, then that it still renders.
    static func expectProblems(_ uris: [String], status: HTTPResponse.Status, kind: String, parameter: String? = nil,
                               configuration: ServerConfiguration = ServerFixtures.configuration(),
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let app = try ServerFixtures.stubbedApplication(configuration)
        try await RouterClient.withClient(for: app) { client in
            for uri in uris {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == status, "\(uri.prefix(120))", sourceLocation: sourceLocation)
                #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
                let problem = try ServerFixtures.problem(response)
                #expect(problem["type"] as? String == "/problems/\(kind)", "\(problem)", sourceLocation: sourceLocation)
                #expect(problem["status"] as? Int == status.code, sourceLocation: sourceLocation)
                #expect((problem["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
                if let parameter { #expect(problem["parameter"] as? String == parameter, "\(problem)", sourceLocation: sourceLocation) }
            }
            let after = try await client.execute(uri: "/v1/cards/sample/render.png?size=32x32", method: .get)
            #expect(after.status == .ok, "the server stopped serving after \(uris.map { $0.prefix(120) })", sourceLocation: sourceLocation)
        }
    }

    /// Every parameter a URL takes, given a value no parameter accepts: 400 naming it, with what it
    /// allows. From the table, so parameters added to it are covered as they come.
    @Test(arguments: RenderQuery.parameterNames)
    func everyParameterRefusesAnImpossibleValue(name: String) async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?\(name)=%01zz", status: .badRequest, kind: "bad-parameter", parameter: name)
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let problem = try ServerFixtures.problem(try await client.execute(uri: "/v1/cards/sample/render.png?\(name)=%01zz", method: .get))
            #expect((problem["allowed"] as? String) == RenderRequest.parameter(named: name)?.help(naming: { $0 }))
        }
    }

    /// Numbers out of range, not finite, or too large to mean anything. One server per
    /// parameter: a server for each of the 96 pairs was a seventh of the suite's CPU time.
    @Test(arguments: RenderRequest.parameters.filter { $0.kind == .number || $0.kind == .integer }.map(\.name))
    func numbersOutOfRange(name: String) async throws {
        let values = ["1e308", "-1e308", "nan", "NaN", "inf", "-inf", "infinity", "99999999999999999999999"]
        try await Self.expectProblems(values.map { "/v1/cards/sample/render.png?\(name)=\($0)" }, status: .badRequest,
                                      kind: "bad-parameter", parameter: name)
    }

    @Test(arguments: ["tilt_x=91", "tilt_y=-90.5", "flip=721", "size=0x10", "size=16385x10", "size=10x", "background=%23ggg000",
                      "depth=12", "compression=best", "axis=z", "crossfade=maybe", "tilt_x="])
    func valuesOutOfRange(query: String) async throws {
        let name = String(query.prefix { $0 != "=" })
        try await Self.expectProblem("/v1/cards/sample/render.png?\(query)", status: .badRequest, kind: "bad-parameter", parameter: name)
    }

    @Test func aRepeatedParameterIsRefused() async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?tilt_x=1&tilt_x=2", status: .badRequest, kind: "bad-parameter", parameter: "tilt_x")
    }

    /// A typo must not silently render the default.
    @Test(arguments: ["tiltx=8", "tilt-x=8", "TILT_X=8", "output=x.png", "threads=4", "max_memory=1G", "=8"])
    func unknownParametersAreRefused(query: String) async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?\(query)", status: .badRequest, kind: "bad-parameter")
    }

    /// Parameters that name files: cards come from the server's folder, never from a URL.
    @Test(arguments: RenderRequest.parameters.filter { $0.kind == .path }.map(\.name))
    func fileParametersAreRefused(name: String) async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?\(name)=/etc/passwd", status: .badRequest, kind: "bad-parameter", parameter: name)
    }

    @Test func aLongQueryIsRefused() async throws {
        let query = "tilt_x=1&" + String(repeating: "a", count: 64 * 1024)
        try await Self.expectProblem("/v1/cards/sample/render.png?\(query)", status: .uriTooLong, kind: "query-too-long")
    }

    @Test func badPercentEncodingIsRefused() async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?tilt_x=%zz", status: .badRequest, kind: "bad-parameter")
    }

    /// Ids are looked up, never joined into a path.
    @Test(arguments: ["..", "%2e%2e", "%2E%2E", ".", "%00", "sample%00", "..%2fsample", "%2f", "s%C3%A4mple", "%F0%9F%83%8F", "Sample",
                      "sample.png", String(repeating: "x", count: 300)])
    func unknownCardsAre404(id: String) async throws {
        try await Self.expectProblem("/v1/cards/\(id)/render.png", status: .notFound, kind: "unknown-card")
    }

    /// Paths are matched segment by segment, as sent: `..` and an empty segment are ids like any other.
    @Test(arguments: ["/v1/cards/../render.png", "/v1/cards/./render.png"])
    func dotSegmentsAreUnknownCards(path: String) async throws {
        try await Self.expectProblem(path, status: .notFound, kind: "unknown-card")
    }

    // "/" is the live preview's page (LivePreviewTests).
    @Test(arguments: ["/v1/cards/sample/render.jpeg", "/v1/cards/sample/render.gif", "/v1/cards/sample", "/index.html", "/v2/x",
                      "/v1/cards/sample/../sample/render.png"])
    func otherPathsAre404(path: String) async throws {
        try await Self.expectProblem(path, status: .notFound, kind: "not-found")
    }

    @Test func aCanvasOverTheServersCapIsRefused() async throws {
        try await Self.expectProblem("/v1/cards/sample/render.png?size=4097x100", status: .badRequest, kind: "too-large", parameter: "size")
        try await Self.expectProblem("/v1/cards/sample/render.png?size=300x300", status: .badRequest, kind: "too-large", parameter: "size",
                                     configuration: ServerFixtures.configuration { $0.maxCanvas = .init(width: 256, height: 256) })
        // Without a size the canvas follows the scale.
        try await Self.expectProblem("/v1/cards/sample/render.png?scale=4", status: .badRequest, kind: "too-large", parameter: "scale")
    }

    @Test func aFrameOverTheMemoryLeftForFramesIsRefused() async throws {
        let configuration = ServerFixtures.configuration {
            $0.memory = .init(bytes: 64 << 20)
            $0.cacheBytes = 16 << 20
        }
        try await Self.expectProblem("/v1/cards/sample/render.png?size=4096x4096&depth=16", status: .badRequest, kind: "too-large", parameter: "size",
                                     configuration: configuration)
    }
}
#endif
