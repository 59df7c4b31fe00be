#if Server
import Foundation
import Kira
import KiraFiles
import KiraServerAPI
import Testing

/// `kira serve` as a process: its frames are `kira render`'s bytes, it signs, refuses what it
/// cannot serve at start-up, and stops gracefully on SIGTERM.
@Suite(.serialized) struct ServeCommandTests {
    /// A cards folder with one card made of the workspace's textures.
    static func cards(in workspace: Workspace) throws -> String {
        let folder = workspace.file("cards/own")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (texture, name) in [("front", "art"), ("mask", "mask"), ("back", "back"), ("back-mask", "back_mask")] {
            try FileManager.default.copyItem(atPath: workspace.file("textures/\(texture).png"), toPath: "\(folder)/\(name).png")
        }
        return workspace.file("cards")
    }

    /// Each URL's body against `kira render` with the same values (and the card's files).
    @Test func framesAreByteIdenticalToKiraRender() throws {
        let workspace = try Workspace()
        let server = try ServeProcess(["--cards", try Self.cards(in: workspace)], in: workspace.path)
        let ownFiles = ["--art", "cards/own/art.png", "--mask", "cards/own/mask.png", "--back", "cards/own/back.png", "--back-mask", "cards/own/back_mask.png"]
        let cases: [(card: String, query: [(String, String)])] = [
            ("sample", []),
            ("sample", [("tilt_x", "8"), ("tilt_y", "-14"), ("size", "800x1000"), ("compression", "fast")]),
            ("sample", [("flip", "150"), ("axis", "xy"), ("background", "#1b1f2a"), ("depth", "16")]),
            ("own", [("tilt_y", "20"), ("scale", "2"), ("shader", "threejs")]),
            ("own", [("flip", "180"), ("crossfade", "true"), ("size", "90x120"), ("fit", "true")]),
            ("sample", [("foil", "etched"), ("intensity", "0.7"), ("glare", "0.4"), ("tilt_y", "12")]),
            ("own", [("foil", "cosmos"), ("tilt_x", "-9")]),
        ]
        for (index, (card, query)) in cases.enumerated() {
            let encoded = query.map { "\($0.0)=\($0.1.replacingOccurrences(of: "#", with: "%23"))" }.joined(separator: "&")
            let response = try Curl.get("\(server.base)/v1/cards/\(card)/render.png?\(encoded)")
            #expect(response.status == 200, "\(card) \(encoded): \(String(decoding: response.body, as: UTF8.self))")
            let output = "output/\(index).png"
            let options = query.flatMap { name, value in
                let option = "--" + name.replacingOccurrences(of: "_", with: "-")
                return value == "true" ? [option] : [option, value]
            }
            let render = try CLIRunner.run(["render"] + (card == "own" ? ownFiles : []) + options + ["-o", output], in: workspace.path)
            #expect(render.status == 0, "\(render.stderr)")
            let rendered = try Data(contentsOf: URL(fileURLWithPath: workspace.file(output)))
            #expect(response.body == rendered ? true : false, "\(card) \(encoded): the server's \(response.body.count) bytes differ from kira render's \(rendered.count)")
        }
        #expect(server.stop() == 0)
    }

    /// SIGTERM under load: the renders in flight are answered, then the process exits 0. (What
    /// a graceful shutdown answers is tested in process with renders held open: ConnectionTests in
    /// KiraServerTests. Here the renders are real, large enough to be caught in flight.)
    @Test func sigtermLetsRequestsInFlightFinishAndExitsZero() throws {
        let workspace = try Workspace(empty: ())
        // A grace period no debug render under a loaded suite outlasts: three 3000×3900 renders one
        // after another once took more than the default 20 s, and were rightly cut.
        let server = try ServeProcess(["--max-inflight", "1", "--grace-period", "300"], in: workspace.path)
        let results = Locked<[Curl.Response]>([])
        let group = DispatchGroup()
        // A thread each, not Dispatch: three blocked Dispatch workers on a 2-core machine ran
        // the requests one after another, and the signal never found two of them waiting.
        for i in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                let response = try? Curl.get("\(server.base)/v1/cards/sample/render.png?tilt_x=\(i)&size=1500x1950")
                results.withLock { $0.append(response ?? Curl.Response(status: -1, headers: [:], body: Data(), exitCode: -1)) }
                group.leave()
            }
        }
        // The signal comes with one render in flight and one waiting for the slot.
        var loaded = false
        for _ in 0..<1500 where !loaded {
            let metrics = String(decoding: try Curl.get("\(server.base)/metrics").body, as: UTF8.self)
            loaded = metrics.contains("kira_renders_in_flight 1.0\n") && metrics.contains("kira_renders_waiting 1.0\n")
            if !loaded { usleep(20_000) }
        }
        let status = server.stop(SIGTERM)
        group.wait()
        #expect(loaded, "the signal came before both requests were in")
        #expect(status == 0, "\(server.stderr)")
        let answered = results.withLock { $0 }
        #expect(answered.count == 2)
        #expect(answered.allSatisfy { $0.status == 200 && $0.body.count > 1000 }, "\(answered.map(\.status))")
        // After the exit nothing listens there.
        #expect(try Curl.get("\(server.base)/healthz").status == 0)
    }

    @Test func signedURLsFromKiraSign() throws {
        let workspace = try Workspace(empty: ())
        try "a key of at least sixteen bytes\n".write(toFile: workspace.file("key"), atomically: false, encoding: .utf8)
        let server = try ServeProcess(["--key-file", "key"], in: workspace.path)
        let sign = try CLIRunner.run(["sign", "--key-file", "key", "\(server.base)/v1/cards/sample/render.png?size=100x100&tilt_x=8.0"],
                                     in: workspace.path)
        #expect(sign.status == 0, "\(sign.stderr)")
        let url = sign.stdout.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix("\(server.base)/v1/cards/sample/render.png?tilt_x=8&size=100x100&sig="))
        #expect(try Curl.get(url).status == 200)
        #expect(try Curl.get("\(server.base)/v1/cards/sample/render.png?size=100x100&tilt_x=8").status == 403)
        let bad = try CLIRunner.run(["sign", "--key-file", "key", "/v1/cards/sample/render.png?tilt_x=91"], in: workspace.path)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("tilt_x must be between -90 and 90"))
        #expect(server.stop() == 0)
    }

    @Test(arguments: [
        (["--host", "0.0.0.0"], "--key-file"),
        (["--cache", "3G", "--max-memory", "2G"], "--max-memory"),
        (["--cards", "/nonexistent"], "/nonexistent"),
        (["--max-inflight", "0"], "--max-inflight"),
        (["--key-file", "/nonexistent/key"], "/nonexistent/key"),
        (["--max-size", "0x10"], "--max-size"),
    ])
    func badOptionsExitTwoWithOneLine(arguments: [String], mentions: String) throws {
        let workspace = try Workspace(empty: ())
        let result = try CLIRunner.run(["serve", "--port", "0"] + arguments, in: workspace.path)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("kira serve: "), "\(result.stderr)")
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func aCorruptCardStopsTheStartUp() throws {
        let workspace = try Workspace(empty: ())
        try FileManager.default.createDirectory(atPath: workspace.file("cards/bad"), withIntermediateDirectories: true)
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: workspace.file("cards/bad/art.png")))
        let result = try CLIRunner.run(["serve", "--port", "0", "--cards", "cards"], in: workspace.path)
        #expect(result.status == 2)
        #expect(result.stderr.contains("cards/bad/art.png"), "\(result.stderr)")
    }

    /// Every `kira render` option is a query parameter, but those that name files or concern the
    /// process.
    @Test func everyRenderOptionIsAQueryParameter() throws {
        let notInURLs: Set<String> = ["art", "mask", "back", "back-mask", "foil-map", "output", "threads", "max-memory", "help", "version"]
        let options = try OptionTableTests.options(of: "render").map(\.name).filter { !notInURLs.contains($0) }
        #expect(options.count > 10)
        for option in options {
            let name = option.replacingOccurrences(of: "-", with: "_")
            #expect(RenderQuery.parameterNames.contains(name), "kira render --\(option) has no query parameter \(name)")
        }
    }
}
#endif
