#if Server
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// A connection's child channel with what the upgradable HTTP/1 pipeline leaves out: a deadline
/// for the first request head (``FirstHeadDeadlineHandler``), an answer to requests it cannot
/// parse (``MalformedRequestHandler``, told apart by ``RequestStartRecorder``), a problem for a
/// WebSocket upgrade it refuses (``FailedUpgradeHandler``), a close for a client's unmasked
/// WebSocket frame (``ClientFrameMaskHandler``), closes that wait for a slow reader's bytes and
/// bytes queued for clients counted in the budget (``WriteProgressHandler``), and a connection
/// closed when its task is cancelled (the grace period is over), whatever it was waiting for. A
/// connection closed before its first head is no error in its log (``ConnectionLogHandler``).
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    /// The inner pipeline's value, and the watch its requests read (``PeerWatch/current``).
    struct Value: ServerChildChannelValue {
        let inner: Inner.Value
        let peer: PeerWatch
        var channel: any Channel { inner.channel }
    }

    let inner: Inner
    let timeout: TimeAmount
    let gate: AdmissionGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let peer = PeerWatch()
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(ClientFrameMaskHandler(), position: .first)
            try channel.pipeline.syncOperations.addHandler(RequestStartRecorder(), position: .first)
            try channel.pipeline.syncOperations.addHandler(FirstHeadDeadlineHandler(timeout: timeout, peer: peer), position: .first)
            try channel.pipeline.syncOperations.addHandler(WriteProgressHandler(idleTimeout: timeout, gate: gate), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }.flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let start = try channel.pipeline.syncOperations.handler(type: RequestStartRecorder.self)
            let frames = try channel.pipeline.syncOperations.handler(type: ClientFrameMaskHandler.self)
            try channel.pipeline.syncOperations.addHandler(MalformedRequestHandler(start: start), position: .after(decoder))
            try channel.pipeline.syncOperations.addHandler(FailedUpgradeHandler(frames: frames), position: .after(decoder))
            return Value(inner: value, peer: peer)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskCancellationHandler {
            await PeerWatch.$current.withValue(value.peer) {
                await inner.handle(value: value.inner, logger: ConnectionLogHandler.wrapping(logger))
            }
        } onCancel: {
            value.channel.triggerUserOutboundEvent(WriteProgressHandler.CloseNow(), promise: nil)
        }
    }
}
#endif
