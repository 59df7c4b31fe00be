#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraRequest
import KiraServer
import Testing

/// Signed URLs: with a key, only URLs signed with it render.
@Suite struct SignedURLTests {
    let signer = URLSignature(key: ServerFixtures.key)
    var configuration: ServerConfiguration { ServerFixtures.configuration { $0.key = ServerFixtures.key } }

    @Test func aSignedURLRendersAndAnUnsignedOneIs403() async throws {
        let app = try ServerFixtures.stubbedApplication(configuration)
        let signed = try signer.sign(url: "/v1/cards/sample/render.png?tilt_x=8&size=100x100")
        try await RouterClient.withClient(for: app) { client in
            #expect(try await client.execute(uri: signed, method: .get).status == .ok)
            for uri in ["/v1/cards/sample/render.png?tilt_x=8&size=100x100", "/v1/cards/sample/render.png"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .forbidden)
                #expect(try ServerFixtures.problem(response)["type"] as? String == "/problems/bad-signature")
            }
        }
    }

    /// A `sig` that is not percent-encoded correctly is malformed: 403, as a missing one, not 400.
    @Test func aBadlyEncodedSignatureIs403() async throws {
        let app = try buildApplication(configuration)
        try await RouterClient.withClient(for: app) { client in
            for sig in ["%zz", "%", "abc%2"] {
                let response = try await client.execute(uri: "/v1/cards/sample/render.png?tilt_x=8&sig=\(sig)", method: .get)
                #expect(response.status == .forbidden, "sig=\(sig)")
                #expect(try ServerFixtures.problem(response)["type"] as? String == "/problems/bad-signature")
            }
        }
    }

    @Test func changingAnythingBreaksTheSignature() async throws {
        let app = try ServerFixtures.stubbedApplication(configuration)
        let signed = try signer.sign(url: "/v1/cards/sample/render.png?tilt_x=8&size=100x100")
        let other = URLSignature(key: Array("another key that is long enough".utf8))
        let tampered = [
            signed.replacingOccurrences(of: "tilt_x=8", with: "tilt_x=9"),
            signed.replacingOccurrences(of: "size=100x100", with: "size=100x101"),
            signed.replacingOccurrences(of: "/sample/", with: "/other/"),
            signed + "&flip=10",
            signed.replacingOccurrences(of: "sig=", with: "sig=A"),
            signed.replacingOccurrences(of: "sig=", with: "sig=%00"),
            try other.sign(url: "/v1/cards/sample/render.png?tilt_x=8&size=100x100"),
            "/v1/cards/sample/render.png?tilt_x=8&size=100x100&sig=",
        ]
        try await RouterClient.withClient(for: app) { client in
            for uri in tampered {
                let status = try await client.execute(uri: uri, method: .get).status
                // A changed card id is either unknown (404 after the signature fails first) or forbidden.
                #expect(status == .forbidden || (uri.contains("/other/") && status == .notFound), "\(uri.prefix(160)): \(status)")
            }
            #expect(try await client.execute(uri: signed, method: .get).status == .ok)
            // A signature too long for a query is refused before it is looked at.
            let long = "/v1/cards/sample/render.png?tilt_x=8&size=100x100&sig=" + String(repeating: "A", count: 5000)
            #expect(try await client.execute(uri: long, method: .get).status == .uriTooLong)
        }
    }

    /// The signature covers the query's meaning: any spelling of the same values verifies.
    @Test func theSignatureCoversTheCanonicalQuery() async throws {
        let app = try ServerFixtures.stubbedApplication(configuration)
        let signed = try signer.sign(url: "http://example.test:8080/v1/cards/sample/render.png?size=100x100&tilt_x=8.0&background=%231B1F2A")
        #expect(signed.hasPrefix("http://example.test:8080/v1/cards/sample/render.png?tilt_x=8&size=100x100&background=%231b1f2a&sig="))
        let sig = try #require(signed.split(separator: "sig=").last)
        try await RouterClient.withClient(for: app) { client in
            let respelled = "/v1/cards/sample/render.png?background=%231B1F2A&tilt_x=8.000&size=100x100&sig=\(sig)"
            let status = try await client.execute(uri: respelled, method: .get).status
            #expect(status == .ok)
        }
    }

    @Test func aSignatureIsHMACSHA256OfPathAndCanonicalQuery() {
        // printf %s "/v1/cards/sample/render.png?tilt_x=8" | openssl dgst -sha256 -hmac 0123456789abcdef0123456789abcdef -binary | base64 | tr '+/' '-_' | tr -d =
        #expect(signer.signature(of: "/v1/cards/sample/render.png?tilt_x=8") == "FYCzJ9x32X8iYLbqfcdw6RRbq3UWM49pkTSgJO5-Hvo")
    }

    @Test func signRefusesWhatIsNotARenderURL() {
        #expect(throws: RequestError.self) { try signer.sign(url: "/v1/cards/sample/render.png?tilt_x=91") }
        #expect(throws: RequestError.self) { try signer.sign(url: "/healthz") }
        #expect(throws: RequestError.self) { try signer.sign(url: "/v1/cards/sample/render.png?art=a.png") }
    }

    @Test func withoutAKeyOnlyLoopbackUnlessInsecure() throws {
        #expect(throws: ServerSetupError.self) { try ServerFixtures.configuration { $0.host = "0.0.0.0" }.validate() }
        #expect(throws: ServerSetupError.self) { try ServerFixtures.configuration { $0.host = "192.168.1.2" }.validate() }
        #expect(throws: ServerSetupError.self) { try ServerFixtures.configuration { $0.host = "127.0.0.1.example.com" }.validate() }
        try ServerFixtures.configuration { $0.host = "0.0.0.0"; $0.insecure = true }.validate()
        try ServerFixtures.configuration { $0.host = "0.0.0.0"; $0.key = ServerFixtures.key }.validate()
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] { try ServerFixtures.configuration { $0.host = host }.validate() }
    }

    @Test func shortKeysAreRefused() {
        #expect(throws: ServerSetupError.self) { try ServerFixtures.configuration { $0.key = Array("short".utf8) }.validate() }
    }
}
#endif
