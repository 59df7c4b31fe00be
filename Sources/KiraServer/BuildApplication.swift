#if Server
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import KiraServerAPI
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ServiceLifecycle

/// The server `configuration` describes, with its cards loaded: what `kira serve` runs and what
/// the tests drive, in process and on a socket.
public func buildApplication(_ configuration: KiraServerAPI.ServerConfiguration,
                             onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void = { _, _ in })
    throws(ServerSetupError) -> some ApplicationProtocol {
    try buildApplication(configuration, clock: SystemClock(), render: FrameService.renderOnRenderThread, onListening: onListening)
}

/// The server with the time it reads and the renders it runs given: what tests hold and move.
func buildApplication(_ configuration: KiraServerAPI.ServerConfiguration, clock: any ServerClock, render: @escaping FrameService.Render,
                      onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void = { _, _ in })
    throws(ServerSetupError) -> some ApplicationProtocol {
    try configuration.validate()
    let cards = try CardLibrary.load(directory: configuration.cardsDirectory,
                                     textureBudget: configuration.memory.bytes - configuration.cacheBytes)
    let metrics = ServerMetrics()
    let service = FrameService(configuration: configuration, cards: cards, metrics: metrics, clock: clock, render: render)
    guard service.gate.byteBudget > 0 else {
        throw ServerSetupError("--max-memory leaves nothing for frames beside --cache and the cards' textures: raise it or lower --cache")
    }

    // The WebSocket context: the live preview's `/live` upgrades on the same router and port.
    // HEAD is answered wherever GET is, with GET's headers and no body.
    let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Middleware first: each route is built with the middleware added before it.
    router.add(middleware: RequestLogMiddleware(metrics: metrics, logger: configuration.logger, clock: clock))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: PathSpellingMiddleware())
    router.add(middleware: MethodCheckMiddleware())
    // The browser's Kira at /web/ (kira.wasm as application/wasm), from the folder it is installed in.
    if let web = configuration.webDirectory {
        router.add(middleware: FileMiddleware(web, urlBasePath: "/web", logger: configuration.logger))
    }
    RenderController(service: service).addRoutes(to: router)
    StatusController(metrics: metrics).addRoutes(to: router)
    if configuration.servesPreview {
        LiveController(service: service).addRoutes(to: router)
        CardFileController(service: service).addRoutes(to: router)
    }

    return Application(
        responder: MethodCheck.Responder(inner: router.buildResponder()),
        server: HTTPServerBuilder { [webSocketResponder = router.buildResponder()] responder in
            GuardedChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: MalformedRequest.responder(wrapping: responder, logger: configuration.logger, metrics: metrics),
                    webSocketResponder: webSocketResponder,
                    configuration: .init(http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
                                         // Frames out are split into WebSocket frames of this size; a message in is cut at LiveInput.maxBytes.
                                         ws: .init(maxFrameSize: 1 << 16))),
                timeout: TimeAmount(configuration.idleTimeout), gate: service.gate)
        },
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
        onServerRunning: { channel in
            let address = channel.localAddress
            onListening(address?.ipAddress ?? configuration.host, address?.port ?? configuration.port)
        },
        logger: configuration.logger)
}

/// Builds the server and runs it until SIGTERM or SIGINT (``runUntilTerminated(_:gracePeriod:logger:)``):
/// what `kira serve` does. Throws ``ServerSetupError`` when it cannot start.
public func serve(_ configuration: KiraServerAPI.ServerConfiguration,
                  onListening: @escaping @Sendable (_ host: String, _ port: Int) -> Void = { _, _ in }) async throws {
    let application = try buildApplication(configuration, onListening: onListening)
    do {
        try await runUntilTerminated(application, gracePeriod: configuration.gracePeriod, logger: configuration.logger)
    } catch let error as IOError where error.errnoCode == EADDRINUSE {
        throw ServerSetupError("\(configuration.host):\(configuration.port) is in use by another program: stop it, or give another --port")
    }
}

/// Runs `application` until SIGTERM or SIGINT, then stops taking connections and gives requests
/// in flight `gracePeriod` to finish; returns when it has stopped.
public func runUntilTerminated(_ application: some ApplicationProtocol, gracePeriod: Duration, logger: Logger) async throws {
    var configuration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = gracePeriod
    try await ServiceGroup(configuration: configuration).run()
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
#endif
