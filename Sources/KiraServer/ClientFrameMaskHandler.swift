#if Server
import NIOCore

/// Closes a WebSocket connection whose client sends a frame without a mask, with close code 1002
/// (protocol error), as RFC 6455 §5.1 requires of a server: neither SwiftNIO's frame decoder nor
/// hummingbird-websocket checks the mask bit, and their frames reach the live preview unmasked.
///
/// It sits before the HTTP decoder and reads the connection's bytes as they come. Frames may
/// follow the upgrade request in the same read, before anyone knows whether the upgrade goes on,
/// so from the end of the first request head it walks the bytes as frame headers and lengths; it
/// stops when that request turns out to be no upgrade (``notUpgrading()``), and acts once the
/// upgrade has been answered (``upgraded()``).
final class ClientFrameMaskHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum Phase {
        /// Within the first request head, looking for its empty line.
        case head(EmptyLineScanner)
        /// Reading what follows the head as frames: `header` is the current frame's header so far,
        /// `payloadLeft` the bytes of its payload still to pass.
        case frames(header: [UInt8], payloadLeft: UInt64)
        /// The connection is no upgrade, or a frame came unmasked: nothing more to read.
        case done
    }

    private var phase = Phase.head(EmptyLineScanner())
    private var unmaskedSeen = false
    private var upgradeAnswered = false
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .done = phase {
            // Refused: what follows the unmasked frame is not read.
            if !(unmaskedSeen && upgradeAnswered) { context.fireChannelRead(data) }
            return
        }
        unwrapInboundIn(data).withUnsafeReadableBytes { read($0) }
        if unmaskedSeen, upgradeAnswered {
            refuse(context)
        } else {
            context.fireChannelRead(data)
        }
    }

    /// The first request is no upgrade: its bytes and the next requests' are HTTP.
    func notUpgrading() {
        phase = .done
        unmaskedSeen = false
    }

    /// The upgrade was answered with 101: what the client sent after its request is frames.
    func upgraded() {
        upgradeAnswered = true
        if unmaskedSeen, let context { refuse(context) }
    }

    private func read(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            switch phase {
            case .done:
                return
            case .head(var emptyLine):
                if let end = emptyLine.end(in: bytes, from: index) {
                    index = end
                    phase = .frames(header: [], payloadLeft: 0)
                } else {
                    index = bytes.count
                    phase = .head(emptyLine)
                }
            case .frames(var header, let payloadLeft):
                if payloadLeft > 0 {
                    let passed = Int(min(payloadLeft, UInt64(bytes.count - index)))
                    index += passed
                    phase = .frames(header: header, payloadLeft: payloadLeft - UInt64(passed))
                    continue
                }
                header.append(bytes[index])
                index += 1
                if header.count == 2, header[1] & 0x80 == 0 {
                    unmaskedSeen = true
                    phase = .done
                } else if header.count >= 2, header.count == Self.headerLength(header[1]) {
                    phase = .frames(header: [], payloadLeft: Self.payloadLength(header))
                } else {
                    phase = .frames(header: header, payloadLeft: 0)
                }
            }
        }
    }

    /// Sends a close frame with code 1002 (the server's frames go unmasked) and closes.
    private func refuse(_ context: ChannelHandlerContext) {
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: [0x88, 0x02, 0x03, 0xEA])), promise: nil)
        context.close(promise: nil)
    }

    /// A client frame header's length from its second byte: two bytes, a 16- or 64-bit length,
    /// and the four of the mask.
    private static func headerLength(_ second: UInt8) -> Int {
        switch second & 0x7F {
        case 126: 2 + 2 + 4
        case 127: 2 + 8 + 4
        default: 2 + 4
        }
    }

    /// The payload length a whole frame header gives.
    private static func payloadLength(_ header: [UInt8]) -> UInt64 {
        switch header[1] & 0x7F {
        case 126: header[2..<4].reduce(0) { $0 << 8 | UInt64($1) }
        case 127: header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        case let length: UInt64(length)
        }
    }
}
#endif
