import ArgumentParser
import Dispatch
import Kira
import KiraServerAPI
import Logging
#if KIRA_SERVE_TOOL && Server
import KiraServer
#endif

/// `kira serve`: the render API over HTTP (docs/serve.md).
struct ServeCommand: ParsableCommand, HandlesTerminationSignals {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve frames over HTTP: GET /v1/cards/ID/render.png?tilt_x=8&size=800x1000 (the kira render options as query parameters).",
        discussion: """
            Serves the built-in card as 'sample', and with --cards every sub-folder of DIR as a card named \
            after it (art.png, and optionally mask.png, back.png, back_mask.png, foil_map.png). Also /healthz, /readyz and \
            /metrics (Prometheus), and at / a live preview: drag the card in a browser (docs/live-preview.md). Frames are cached, immutable and carry an ETag; errors are RFC 9457 \
            problem+json. Without --key-file it listens on loopback only (unless --insecure); with it, every \
            render URL must be signed ('kira sign'). SIGTERM or SIGINT stop it gracefully (exit 0). \
            A card folder that cannot be served stops the start-up (exit 2). See docs/serve.md; the query \
            parameters, with their ranges and defaults, are in docs/parameters.md.
            """
    )

    private static let defaults = ServerConfiguration(kiraVersion: BuildInfo.version)

    @Option(help: ArgumentHelp("The address to listen on (default: \(defaults.host)).", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("The port (default: \(defaults.port); 0 takes a free one, which the first line names).", valueName: "n"))
    var port: Int?

    @Option(help: ArgumentHelp("A folder of card folders to serve, each by its name.", valueName: "dir"))
    var cards: String?

    @Option(help: ArgumentHelp("The browser's Kira to serve at /web/ and use in the live preview (default: ../share/kira/web or ../web beside this program, where a package or scripts/build-web puts it; without one the preview streams frames).", valueName: "dir"))
    var web: String?

    @Option(help: ArgumentHelp("Bytes of frames to keep for repeated requests, inside --max-memory (default: \(defaults.cacheBytes >> 20)M).", valueName: "size"))
    var cache: ByteCountArgument?

    @Option(name: .customLong("max-inflight"), help: ArgumentHelp("Renders at once (default: one per processor).", valueName: "n"))
    var maxInflight: Int?

    @Option(name: .customLong("max-wait"), help: ArgumentHelp("Seconds a request may wait for a render slot before a 503 (default: \(Self.seconds(defaults.maxWait))).", valueName: "s"))
    var maxWait: Double?

    @Option(help: ArgumentHelp("Seconds a request may take in all before a 503 (default: \(Self.seconds(defaults.deadline))).", valueName: "s"))
    var deadline: Double?

    @Option(name: .customLong("max-size"), help: ArgumentHelp("The largest canvas a request may ask for (default: \(defaults.maxCanvas.width)x\(defaults.maxCanvas.height)).", valueName: "WxH"))
    var maxSize: SizeArgument?

    @Option(name: .customLong("key-file"), help: ArgumentHelp("Serve only URLs signed with the key in this file (at least 16 bytes; see kira sign).", valueName: "path"))
    var keyFile: String?

    @Flag(help: "Listen on a non-loopback address without --key-file.")
    var insecure = false

    @Option(help: ArgumentHelp("Threads per render (default: the processors shared among --max-inflight renders).", valueName: "n"))
    var threads: Int?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection that sends nothing for this many seconds (default: \(Self.seconds(defaults.idleTimeout))).", valueName: "s"))
    var idleTimeout: Double?

    @Option(name: .customLong("grace-period"), help: ArgumentHelp("Seconds requests in flight get to finish after SIGTERM (default: \(Self.seconds(defaults.gracePeriod))).", valueName: "s"))
    var gracePeriod: Double?

    @Flag(help: "With --key-file, serve the live preview (GET / and /live) too; its download links are signed. Without a key it is always served.")
    var preview = false

    @Option(name: .customLong("max-live-connections"), help: ArgumentHelp("Live previews open at once; more are refused (default: \(defaults.maxLiveConnections)).", valueName: "n"))
    var maxLiveConnections: Int?

    @Option(name: .customLong("max-live-fps"), help: ArgumentHelp("Frames a second sent to each live preview at most (default: \(defaults.maxLiveFramesPerSecond)).", valueName: "n"))
    var maxLiveFPS: Int?

    @Option(name: .customLong("live-encoding"), help: ArgumentHelp("How live preview frames travel: raw, png, jpeg or webp; \(LiveEncoding.automaticName) sends raw pixels to a page on this machine and PNG to others (default: \(defaults.liveEncoding?.rawValue ?? LiveEncoding.automaticName); docs/live-preview.md).", valueName: "format"))
    var liveEncoding: String?

    @OptionGroup var memory: MemoryOptions

    static func seconds(_ duration: Duration) -> String {
        Check.format(duration.inSeconds)
    }

    /// The server the options describe.
    func serverConfiguration(logger: Logger) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(kiraVersion: BuildInfo.version, logger: logger)
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        configuration.cardsDirectory = cards
        configuration.webDirectory = web ?? ServerProgram.executableFolder().flatMap(ServerConfiguration.webDirectory(besideExecutableIn:))
        if let cache { configuration.cacheBytes = cache.bytes }
        if let maxInflight { configuration.maxInflight = maxInflight }
        for (option, seconds) in [("--max-wait", maxWait), ("--deadline", deadline), ("--idle-timeout", idleTimeout), ("--grace-period", gracePeriod)] {
            guard let seconds else { continue }
            do { try configuration.setDuration(option, seconds: seconds) } catch { throw ValidationError(error.description) }
        }
        if let maxSize { configuration.maxCanvas = .init(width: maxSize.width, height: maxSize.height) }
        configuration.threadsPerRender = threads
        configuration.insecure = insecure
        configuration.preview = preview
        if let maxLiveConnections { configuration.maxLiveConnections = maxLiveConnections }
        if let maxLiveFPS { configuration.maxLiveFramesPerSecond = maxLiveFPS }
        if let liveEncoding {
            do { configuration.liveEncoding = try LiveEncoding.named(liveEncoding) } catch { throw InputError(error.description) }
        }
        configuration.memory = memory.budget
        if let keyFile {
            do { configuration.key = try URLSignature.readKey(path: keyFile) } catch { throw InputError(error.description) }
        }
        do { try configuration.validate() } catch { throw InputError(error.description) }
        return configuration
    }

    func validate() throws { _ = try serverConfiguration(logger: Logger(label: "kira.serve")) }

    /// In `kira`, runs `kira-serve` with the same arguments (``ServerProgram``); in `kira-serve`,
    /// the server.
    func run() throws {
        #if KIRA_SERVE_TOOL && Server
        try serve()
        #elseif KIRA_SERVE_TOOL
        throw InputError("this kira-serve was built without its server (the Server trait): build it with the default traits, "
                         + "'\(ServerProgram.buildCommand)'")
        #else
        try ServerProgram.replaceThisProcess()
        #endif
    }

    #if KIRA_SERVE_TOOL && Server
    private func serve() throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let configuration = try serverConfiguration(logger: Logger(label: "kira.serve"))
        // The command line is synchronous; the server runs in a task while this thread waits.
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await KiraServer.serve(configuration) { host, port in
                    writeToStandardError("kira serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\n")
                }
            } catch let error as ServerSetupError {
                outcome.failure = error.description
            } catch {
                outcome.failure = "the server stopped: \(error)"
            }
            done.signal()
        }
        done.wait()
        if let failure = outcome.failure { throw InputError(failure) }
    }

    private final class Outcome: @unchecked Sendable {
        // Written by the task before `done.signal()`, read after `done.wait()`.
        var failure: String?
    }
    #endif
}
