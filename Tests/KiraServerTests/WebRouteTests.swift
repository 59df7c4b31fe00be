#if Server
import Foundation
import HTTPTypes
import Hummingbird
import KiraRender
import KiraSamples
@testable import KiraServer
import KiraWeb
import Testing

/// The browser's Kira at /web/ from the folder it is installed in, and a card's card file at
/// /v1/cards/ID/card.kira, which it renders from.
@Suite struct WebRouteTests {
    /// A web folder with a module, a script and the element's module in it.
    static func webFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kira-web-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]).write(to: URL(fileURLWithPath: folder + "/kira.wasm"))
        try Data("export const x = 1;\n".utf8).write(to: URL(fileURLWithPath: folder + "/kira.js"))
        try Data("export class KiraCard {}\n".utf8).write(to: URL(fileURLWithPath: folder + "/kira-card.js"))
        return folder
    }

    /// The configuration the live preview's page holds: the JSON between `const config = ` and
    /// the script that reads it.
    static func previewConfiguration(_ client: some HTTPTestClient) async throws -> [String: Any] {
        let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
        let start = try #require(page.range(of: "const config = ")).upperBound
        let end = try #require(page.range(of: ";\n(() => {", range: start..<page.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as? [String: Any])
    }

    /// With a bundle the page is told where `<kira-card>`'s module and the card's file are, and
    /// the module is served there; without one (or without the element in the folder) it is not,
    /// and the page streams.
    @Test func thePreviewIsToldWhereTheBundleIs() async throws {
        let folder = try Self.webFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = try ServerFixtures.stubbedApplication(ServerFixtures.configuration { $0.webDirectory = folder })
        try await RouterClient.withClient(for: app) { client in
            let configuration = try await Self.previewConfiguration(client)
            let bundle = try #require(configuration["bundle"] as? [String: String])
            // Relative to the page, which is at the root here.
            #expect(bundle == ["module": "./web/kira-card.js", "cardFile": "./v1/cards/{id}/card.kira"])
            let module = try await client.execute(uri: String(try #require(bundle["module"]).dropFirst()), method: .get)
            #expect(module.status == .ok && module.headers[.contentType]?.hasPrefix("text/javascript") == true)
            let cardFile = String(try #require(bundle["cardFile"]).dropFirst()).replacing("{id}", with: "sample")
            let cardFileStatus = try await client.execute(uri: cardFile, method: .get).status
            #expect(cardFileStatus == .ok)
            // The page loads the module from the configuration, not from a path of its own.
            let page = String(buffer: try await client.execute(uri: "/", method: .get).body)
            #expect(page.contains("import(config.bundle.module)"))
        }
        let bare = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: bare) { client in
            let configuration = try await Self.previewConfiguration(client)
            #expect(configuration["bundle"] == nil)
        }
        try FileManager.default.removeItem(atPath: folder + "/kira-card.js")
        #expect(PreviewConfiguration.bundle(in: folder) == nil)
        #expect(PreviewConfiguration.bundle(in: nil) == nil)
    }

    @Test func theBundleIsServedWithItsTypes() async throws {
        let folder = try Self.webFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = try ServerFixtures.stubbedApplication(ServerFixtures.configuration { $0.webDirectory = folder })
        try await RouterClient.withClient(for: app) { client in
            let wasm = try await client.execute(uri: "/web/kira.wasm", method: .get)
            #expect(wasm.status == .ok && wasm.headers[.contentType] == "application/wasm")
            #expect(Array(buffer: wasm.body) == [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])
            let script = try await client.execute(uri: "/web/kira.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            let answer1 = try await client.execute(uri: "/web/missing.js", method: .get)
            #expect(answer1.status == .notFound)
            let answer2 = try await client.execute(uri: "/web/../Package.swift", method: .get)
            #expect(answer2.status != .ok)
        }
        // Without a folder there is nothing at /web/.
        let bare = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: bare) { client in
            let answer3 = try await client.execute(uri: "/web/kira.wasm", method: .get)
            #expect(answer3.status == .notFound)
        }
    }

    @Test func aFolderWithoutTheModuleIsRefused() throws {
        let configuration = ServerFixtures.configuration { $0.webDirectory = "/nonexistent-kira-web" }
        #expect(throws: ServerSetupError.self) { try configuration.validate() }
    }

    @Test func theCardFileIsTheCardsFaces() async throws {
        let app = try ServerFixtures.stubbedApplication()
        try await RouterClient.withClient(for: app) { client in
            let response = try await client.execute(uri: "/v1/cards/sample/card.kira", method: .get)
            #expect(response.status == .ok && response.headers[.contentType] == "application/octet-stream")
            let gzip = Array(buffer: response.body)
            #expect(gzip.starts(with: [0x1f, 0x8b]))
            let raw = try Self.gunzip(gzip)
            let faces = try raw.withUnsafeBytes { try CardFile.decode($0) }
            #expect(faces.front.art == BuiltInCard.front.art && faces.back.mask == BuiltInCard.back.mask)
            let etag = try #require(response.headers[.eTag])
            var headers = HTTPFields()
            headers[.ifNoneMatch] = etag
            let again = try await client.execute(uri: "/v1/cards/sample/card.kira", method: .get, headers: headers, body: nil)
            #expect(again.status == .notModified)
            let answer4 = try await client.execute(uri: "/v1/cards/nothing/card.kira", method: .get)
            #expect(answer4.status == .notFound)
        }
    }

    /// A server that signs its URLs shows a card's files only to its live preview's users.
    @Test func aSigningServerWithoutThePreviewHasNoCardFiles() async throws {
        let app = try ServerFixtures.stubbedApplication(ServerFixtures.configuration { $0.key = Array("a secret of sixteen bytes".utf8) })
        try await RouterClient.withClient(for: app) { client in
            let answer5 = try await client.execute(uri: "/v1/cards/sample/card.kira", method: .get)
            #expect(answer5.status == .notFound)
        }
    }

    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread { input.fileHandleForWriting.write(Data(bytes)); try? input.fileHandleForWriting.close() }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }
}
#endif
