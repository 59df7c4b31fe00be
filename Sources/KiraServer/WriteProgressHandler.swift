#if Server
import NIOCore

/// Watches a connection's bytes on their way to the socket: a close waits while they still leave
/// (so a slow reader's download is not cut), and the large ones count in the server's memory
/// budget until they are sent.
///
/// HTTP/1's idle timeout restarts when a response is queued, not when it is sent: a client reading
/// a 16 MB frame at 1 MB/s was cut after the timeout. So a close asked for while bytes are queued
/// waits until they are written, or until none has been for the idle timeout. A large buffer goes
/// in slices, each one's completion a sign of progress. And a frame queued for a client that never
/// reads is memory like a frame being rendered: it holds its bytes in ``AdmissionGate`` (once,
/// however many clients it goes to, and not while the frame cache keeps it) until it is sent or the
/// connection closes.
final class WriteProgressHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Closes the connection now, whatever is queued: the grace period is over.
    struct CloseNow: Sendable {}

    /// Bytes per slice of a large buffer.
    static let sliceBytes = 256 << 10
    /// Buffers this large and larger count in the budget (below it, heads and small answers).
    static let countedBytes = 64 << 10

    private let idleTimeout: TimeAmount
    private let gate: AdmissionGate
    private var queued = 0
    private var lastProgress = NIODeadline.now()
    private var closeRequested = false
    private var closePromises: [EventLoopPromise<Void>] = []
    private var closeCheck: Scheduled<Void>?

    init(idleTimeout: TimeAmount, gate: AdmissionGate) {
        self.idleTimeout = idleTimeout
        self.gate = gate
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(let rest) = unwrapOutboundIn(data), rest.readableBytes >= Self.countedBytes else {
            send(data, context: context, promise: promise)
            return
        }
        let key = Self.key(of: rest)
        gate.hold(key: key, bytes: rest.capacity)
        let gate = self.gate
        let last = context.eventLoop.makePromise(of: Void.self)
        last.futureResult.whenComplete { _ in gate.releaseHeld(key: key) }
        if let promise { last.futureResult.cascade(to: promise) }
        for piece in Self.pieces(of: rest) {
            send(wrapOutboundOut(.byteBuffer(piece)), context: context, promise: piece.writerIndex == rest.writerIndex ? last : nil)
        }
    }

    /// `buffer`'s readable bytes in pieces of ``sliceBytes``, each a window on `buffer`'s own
    /// storage. Not `readSlice`: NIO copies a slice that starts 16 MiB or more into its storage,
    /// which kept a second copy of all but the first 16 MiB of every large frame queued for a
    /// client that does not read (8 frames of 31 MB: 120 MB the budget did not count).
    static func pieces(of buffer: ByteBuffer) -> [ByteBuffer] {
        stride(from: buffer.readerIndex, to: buffer.writerIndex, by: sliceBytes).map { start in
            var piece = buffer
            piece.moveWriterIndex(to: min(start + sliceBytes, buffer.writerIndex))
            piece.moveReaderIndex(to: start)
            return piece
        }
    }

    /// The identity of `buffer`'s storage, shared by its copies and slices: how the budget knows a
    /// buffer queued for several clients, or kept by the frame cache.
    static func key(of buffer: ByteBuffer) -> Int {
        buffer.withVeryUnsafeBytes { Int(bitPattern: $0.baseAddress) }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, queued > 0 else {
            context.close(mode: mode, promise: promise)
            return
        }
        if let promise { closePromises.append(promise) }
        guard !closeRequested else { return }
        closeRequested = true
        scheduleCloseCheck(context: context)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is CloseNow else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed()
        closeNow(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        closeCheck?.cancel()
    }

    private func send(_ data: NIOAny, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        queued += 1
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.queued -= 1
            self.lastProgress = .now()
            if self.closeRequested, self.queued == 0 { self.closeNow(context: context) }
        }
        if let promise { written.futureResult.cascade(to: promise) }
        context.write(data, promise: written)
    }

    /// Closes once nothing is queued, or nothing has been written for the idle timeout.
    private func scheduleCloseCheck(context: ChannelHandlerContext) {
        closeCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: lastProgress + idleTimeout) {
            if self.queued == 0 || .now() >= self.lastProgress + self.idleTimeout {
                self.closeNow(context: context)
            } else {
                self.scheduleCloseCheck(context: context)
            }
        }
    }

    private func closeNow(context: ChannelHandlerContext) {
        closeCheck?.cancel()
        closeCheck = nil
        closeRequested = false
        let promises = closePromises
        closePromises = []
        let closed = context.eventLoop.makePromise(of: Void.self)
        for promise in promises { closed.futureResult.cascade(to: promise) }
        context.close(mode: .all, promise: closed)
    }
}
#endif
