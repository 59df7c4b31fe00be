#if Server
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import Synchronization

/// Gathers a response body as the router writes it, for ``RouterClient``.
final class ResponseCollector: ResponseBodyWriter, Sendable {
    private let gathered = Mutex(ByteBuffer())

    var body: ByteBuffer { gathered.withLock { $0 } }

    func write(_ buffer: ByteBuffer) async throws {
        _ = gathered.withLock { $0.writeImmutableBuffer(buffer) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
#endif
