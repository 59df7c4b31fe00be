#if Server
import Logging
import NIOCore

/// A connection's log: `inner`'s, but for the line the WebSocket-upgradable pipeline writes at
/// error level when a connection closes before its first request head, which is demoted to debug.
///
/// Nothing is lost then (a client that connects and leaves, one cut by the first-head deadline or
/// by shutdown), but hummingbird-websocket logs the upgrade handler's removal as an error and keeps
/// the result it fails with to itself; so the line is told by its message and error.
struct ConnectionLogHandler: LogHandler {
    var inner: any LogHandler

    static let upgradeFailure = "Error handling upgrade result"

    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level == .error, Self.isClosedBeforeHead(event) {
            guard inner.logLevel <= .debug else { return }
            event.level = .debug
        }
        inner.log(event: event)
    }

    /// Whether `event` is the upgradable pipeline's line for a connection closed before its first head.
    static func isClosedBeforeHead(_ event: LogEvent) -> Bool {
        event.message.description == upgradeFailure
            && event.metadata?["error.type"]?.description == "\(ChannelError.inappropriateOperationForState)"
    }

    /// `logger` with its handler wrapped.
    static func wrapping(_ logger: Logger) -> Logger {
        var wrapped = logger
        wrapped.handler = ConnectionLogHandler(inner: logger.handler)
        return wrapped
    }
}
#endif
