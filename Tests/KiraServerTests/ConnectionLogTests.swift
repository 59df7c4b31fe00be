#if Server
import KiraFiles
@testable import KiraServer
import Logging
import NIOCore
import Testing

/// A connection that closes before its first request head is no error in the log; every other
/// line of a connection's log passes as it was.
@Suite struct ConnectionLogTests {
    /// Log lines as they reach the handler, with their levels.
    final class Recorder: Sendable {
        let lines = Locked<[(level: Logger.Level, message: String)]>([])

        var logger: Logger {
            var logger = Logger(label: "kira.serve.test") { _ in Handler(recorder: self) }
            logger.logLevel = .trace
            return logger
        }

        struct Handler: LogHandler {
            let recorder: Recorder
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                recorder.lines.withLock { $0.append((event.level, event.message.description)) }
            }
        }
    }

    static func upgradeFailure(_ error: any Error) -> Logger.Metadata { ["error.type": .string("\(error)")] }

    @Test func theUpgradeLineOfAConnectionClosedBeforeItsHeadIsDebug() {
        let recorder = Recorder()
        let logger = ConnectionLogHandler.wrapping(recorder.logger)
        logger.error("Error handling upgrade result", metadata: Self.upgradeFailure(ChannelError.inappropriateOperationForState))
        logger.error("Error handling upgrade result", metadata: Self.upgradeFailure(ChannelError.ioOnClosedChannel))
        logger.error("something else")
        logger.info("a request")
        let lines = recorder.lines.withLock { $0 }
        #expect(lines.map(\.level) == [.debug, .error, .error, .info], "\(lines)")
    }

    @Test func atInfoTheLineIsDropped() {
        let recorder = Recorder()
        var logger = ConnectionLogHandler.wrapping(recorder.logger)
        logger.logLevel = .info
        logger.error("Error handling upgrade result", metadata: Self.upgradeFailure(ChannelError.inappropriateOperationForState))
        #expect(recorder.lines.withLock { $0.isEmpty })
    }

    /// Through the server: connections closed before their heads (by the client, or by the
    /// first-head deadline) leave no error-level line, and the pipeline's line for them is there,
    /// at debug (so this test sees the case it is about).
    @Test func connectionsClosedBeforeTheirHeadsLogNoError() async throws {
        let recorder = Recorder()
        let configuration = ServerFixtures.configuration {
            $0.logger = recorder.logger
            $0.idleTimeout = .seconds(1)
        }
        try await ServerFixtures.running(configuration) { port in
            let connections = try await RawConnection.open(4, port: port)
            connections[0].send("GET /heal")
            connections[1].send("\r\n")
            for connection in connections.prefix(3) {
                #expect(await connection.readUntilClosed(seconds: 60) != nil, "the first-head deadline did not close a connection")
            }
        }
        let lines = recorder.lines.withLock { $0 }
        #expect(!lines.contains { $0.level >= .error }, "\(lines.filter { $0.level >= .error })")
        #expect(lines.contains { $0.level == .debug && $0.message == ConnectionLogHandler.upgradeFailure }, "\(lines)")
    }
}
#endif
