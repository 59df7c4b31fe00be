import KiraFiles
import KiraImage
import KiraRender
import KiraRequest
import Logging

/// Everything `kira serve` is started with: where it listens, which cards it serves, and what a
/// request may cost. ``buildApplication(_:)`` makes the server from it, for `kira serve` and the
/// tests alike.
public struct ServerConfiguration: Sendable {
    /// The address to listen on; without a ``key`` it must be a loopback address unless ``insecure``.
    public var host = "127.0.0.1"
    /// The port; 0 takes any free one (the log says which).
    public var port = 8080
    /// A folder whose sub-folders are cards (``CardLibrary``); the sample card is always served.
    public var cardsDirectory: String?
    /// Bytes of encoded frames kept for repeated requests, counted inside ``memory``.
    public var cacheBytes = 256 << 20
    /// Renders running at once; more wait up to ``maxWait``, then get 503.
    public var maxInflight = TileScheduler.processorCount
    /// How long a request may wait for a free render before it is refused with 503.
    public var maxWait: Duration = .milliseconds(500)
    /// How long a request may take in all (waiting and rendering) before it is answered with 503;
    /// a render already running finishes and is cached for the next request.
    public var deadline: Duration = .seconds(10)
    /// The largest canvas a request may ask for (the command line allows up to 16384×16384).
    public var maxCanvas = CanvasSettings.Size(width: 4096, height: 4096)
    /// Textures, cached frames and frames being rendered together stay under this.
    public var memory = MemoryBudget.standard
    /// Threads each render uses; nil shares the processors among ``maxInflight`` renders.
    public var threadsPerRender: Int?
    /// The key render URLs are signed with (``URLSignature``); nil serves unsigned URLs.
    public var key: [UInt8]?
    /// Listen on a non-loopback address without a key.
    public var insecure = false
    /// A connection that sends nothing (not even a whole request head) for this long is closed.
    public var idleTimeout: Duration = .seconds(30)
    /// On SIGTERM or SIGINT, requests in flight get this long to finish before the process stops.
    public var gracePeriod: Duration = .seconds(20)
    /// With a ``key``, serve the live preview (`GET /` and its WebSocket `/live`) too; without a
    /// key the preview is always served.
    public var preview = false
    /// Live previews open at once; more are refused with a close reason.
    public var maxLiveConnections = 8
    /// Frames a second each live preview is sent at most.
    public var maxLiveFramesPerSecond = 60
    /// How the live preview's frames travel (``LiveEncoding``); nil picks per connection
    /// (``LiveEncoding/automatic(forPeer:)``).
    public var liveEncoding: LiveEncoding?
    /// The browser's Kira (kira.wasm, kira.js, <kira-card>), served at `/web/` and used by the
    /// live preview to render in the browser; nil: not served, and the preview streams frames.
    public var webDirectory: String?
    /// Kira's version, part of every ETag: a new Kira may draw a frame differently.
    public var kiraVersion: String
    /// Where the server logs: one line per request, and its start and stop.
    public var logger: Logger

    public init(kiraVersion: String, logger: Logger = Logger(label: "kira.serve")) {
        self.kiraVersion = kiraVersion
        self.logger = logger
    }

    /// Where the browser's Kira is installed for an executable in `folder`: `../share/kira/web`
    /// (a package: /usr/bin and /usr/share/kira/web), else `../web` (a build: scripts/build-web
    /// writes .build/web beside .build/release); nil when neither holds kira.wasm.
    public static func webDirectory(besideExecutableIn folder: String) -> String? {
        ["\(folder)/../share/kira/web", "\(folder)/../web"].first { FileIO.isRegularFile("\($0)/kira.wasm") }
    }

    /// Whether `GET /` and `/live` are served.
    public var servesPreview: Bool { key == nil || preview }

    /// The threads each render uses.
    package var renderThreads: Int { threadsPerRender ?? max(1, TileScheduler.processorCount / maxInflight) }

    /// A setting that is a time: its option, where it is held, the seconds it may be, an example.
    package struct DurationSetting: Sendable {
        package let option: String
        package let path: WritableKeyPath<ServerConfiguration, Duration> & Sendable
        package let range: ClosedRange<Double>
        package let example: Double
    }

    /// The times a server is started with, each with its range.
    package static let durationSettings: [DurationSetting] = [
        DurationSetting(option: "--max-wait", path: \.maxWait, range: 0...60, example: 0.5),
        DurationSetting(option: "--deadline", path: \.deadline, range: 0.001...3600, example: 30),
        DurationSetting(option: "--idle-timeout", path: \.idleTimeout, range: 0.1...3600, example: 60),
        DurationSetting(option: "--grace-period", path: \.gracePeriod, range: 0...3600, example: 10),
    ]

    /// Sets the time `option` (one of ``durationSettings``) to `seconds`, refusing a value that is
    /// not finite or out of its range.
    public mutating func setDuration(_ option: String, seconds: Double) throws(ServerSetupError) {
        guard let setting = Self.durationSettings.first(where: { $0.option == option }) else {
            throw ServerSetupError("\(option) is not a time setting; they are " + Self.durationSettings.map(\.option).joined(separator: ", "))
        }
        guard seconds.isFinite, setting.range.contains(seconds) else { throw setting.outOfRange(seconds) }
        self[keyPath: setting.path] = .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Refuses a configuration the server cannot honour, with the reason and what would do.
    public func validate() throws(ServerSetupError) {
        guard (0...65535).contains(port) else { throw ServerSetupError("--port must be 0...65535, not \(port)") }
        for setting in Self.durationSettings {
            let seconds = self[keyPath: setting.path].inSeconds
            guard setting.range.contains(seconds) else { throw setting.outOfRange(seconds) }
        }
        if let webDirectory, !FileIO.isRegularFile("\(webDirectory)/kira.wasm") {
            throw ServerSetupError("--web \(webDirectory): no kira.wasm there (scripts/build-web writes the folder)")
        }
        guard (1...1024).contains(maxInflight) else { throw ServerSetupError("--max-inflight must be 1...1024, not \(maxInflight)") }
        if let threadsPerRender, !(1...1024).contains(threadsPerRender) {
            throw ServerSetupError("--threads must be 1...1024, not \(threadsPerRender)")
        }
        guard (1...CanvasSettings.maxSide).contains(maxCanvas.width), (1...CanvasSettings.maxSide).contains(maxCanvas.height) else {
            throw ServerSetupError("--max-size must be WxH with each side 1...\(CanvasSettings.maxSide)")
        }
        if let problem = memory.problem { throw ServerSetupError("--max-memory \(problem)") }
        guard cacheBytes >= 0, cacheBytes < memory.bytes else {
            throw ServerSetupError("--cache \(MemoryBudget.describe(cacheBytes)) does not fit in --max-memory \(MemoryBudget.describe(memory.bytes)): "
                                   + "the cache counts inside the memory budget, with the textures and the frames being rendered")
        }
        guard (1...4096).contains(maxLiveConnections) else {
            throw ServerSetupError("--max-live-connections must be 1...4096, not \(maxLiveConnections)")
        }
        guard (1...240).contains(maxLiveFramesPerSecond) else {
            throw ServerSetupError("--max-live-fps must be 1...240, not \(maxLiveFramesPerSecond)")
        }
        if let key, key.count < URLSignature.minimumKeyBytes {
            throw ServerSetupError("the key must be at least \(URLSignature.minimumKeyBytes) bytes, not \(key.count)")
        }
        if key == nil, !insecure, !Self.isLoopback(host) {
            throw ServerSetupError("refusing to listen on \(host) without --key-file: anyone who can reach it could make it render "
                                   + "anything; sign URLs with --key-file, listen on 127.0.0.1, or give --insecure")
        }
    }

    /// Whether `host` names this machine only: 127.0.0.0/8, ::1 or localhost.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}

extension ServerConfiguration.DurationSetting {
    /// The error for `seconds`: the range and an example, as a number option's.
    func outOfRange(_ seconds: Double) -> ServerSetupError {
        func format(_ value: Double) -> String { ParameterValue.format(value) }
        let valid = "between \(format(range.lowerBound)) and \(format(range.upperBound)), e.g. \(format(example))"
        return ServerSetupError(seconds.isFinite ? "\(option) must be \(valid), not \(format(seconds))"
                                : "\(option) must be a finite number \(valid), not \(seconds)")
    }
}

extension Duration {
    /// The duration in seconds.
    package var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Why the server cannot start: one line for the operator.
public struct ServerSetupError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
