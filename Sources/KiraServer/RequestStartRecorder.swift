#if Server
import DequeModule
import NIOCore

/// Keeps the first bytes of each request the HTTP/1 decoder has not yet read whole, and whether
/// its request line has ended: what tells apart failures the decoder reports alike (an unknown
/// method from binary junk, a request line too long from a head too long, HTTP/2's preface from a
/// pause).
///
/// It sits before the decoder and only looks. A read may hold a whole head and more (the decoder
/// fails only after it), so each head's empty line starts another request's record, and the
/// oldest is dropped when the decoder hands on a head (``headParsed()``).
final class RequestStartRecorder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Bytes of a request's start kept: its method and, for a short request line, its version.
    static let keptBytes = 256
    /// Requests kept at most: more in one read than a client pipelines (a line each, at least).
    static let keptRequests = 64

    private struct Start {
        var bytes: [UInt8] = []
        var lineLength = 0
        var lineEnded = false
    }

    private var starts: Deque<Start> = [Start()]
    /// Within a head, after its request line: at the start of a line, and after a CR there.
    private var atLineStart = false
    private var crAtLineStart = false

    /// The first bytes of the oldest request not yet parsed.
    var start: [UInt8] { starts.first?.bytes ?? [] }
    /// Whether that request's line has ended.
    var lineEnded: Bool { starts.first?.lineEnded ?? false }
    /// The bytes of that request's line so far.
    var lineLength: Int { starts.first?.lineLength ?? 0 }

    /// The decoder handed on the oldest request's head: the next one is the one to tell.
    func headParsed() {
        if starts.count > 1 { starts.removeFirst() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for byte in unwrapInboundIn(data).readableBytesView { record(byte) }
        context.fireChannelRead(data)
    }

    private func record(_ byte: UInt8) {
        let last = starts.count - 1
        guard starts[last].lineEnded else {
            if starts[last].bytes.count < Self.keptBytes { starts[last].bytes.append(byte) }
            starts[last].lineLength += 1
            if byte == 10 {
                starts[last].lineEnded = true
                atLineStart = true
            }
            return
        }
        if atLineStart, byte == 10 {
            // The empty line: the head is whole, and what follows is the next request.
            if starts.count < Self.keptRequests { starts.append(Start()) } else { starts[last] = Start() }
            atLineStart = false
            crAtLineStart = false
        } else if atLineStart, byte == 13, !crAtLineStart {
            crAtLineStart = true
        } else {
            atLineStart = byte == 10
            crAtLineStart = false
        }
    }
}
#endif
