#if Server
@testable import KiraServer
import NIOCore
import NIOEmbedded
import Testing

/// A large frame queued for a client that does not read is held once: the pieces it goes out in
/// are windows on its own bytes, never copies the memory budget does not see.
@Suite struct QueuedFrameMemoryTests {
    /// Past 16 MiB, where a `readSlice` of NIO's buffer is a copy.
    static let frameBytes = 40 << 20

    static func frame() -> ByteBuffer {
        var frame = ByteBufferAllocator().buffer(capacity: frameBytes)
        frame.writeRepeatingByte(7, count: frameBytes)
        frame.setInteger(UInt32(0xC0FFEE), at: frameBytes - 4)
        return frame
    }

    @Test func everyPieceOfALargeFrameIsItsOwnBytes() throws {
        let frame = Self.frame()
        let pieces = WriteProgressHandler.pieces(of: frame)
        let base = frame.withUnsafeReadableBytes { Int(bitPattern: $0.baseAddress) }
        #expect(pieces.count == Self.frameBytes / WriteProgressHandler.sliceBytes)
        var offset = 0
        var copies: [Int] = []
        for piece in pieces {
            if piece.withUnsafeReadableBytes({ Int(bitPattern: $0.baseAddress) }) != base + offset { copies.append(offset) }
            offset += piece.readableBytes
        }
        #expect(copies.isEmpty, "pieces copied, at offsets \(copies.prefix(3))…")
        #expect(offset == Self.frameBytes)
        #expect(pieces.last?.getInteger(at: pieces.last!.writerIndex - 4, as: UInt32.self) == 0xC0FFEE)
    }

    @Test func aQueuedFrameCountsUntilItIsSent() throws {
        let gate = AdmissionGate(slots: 1, byteBudget: 1 << 30, maxWaiting: 1)
        let channel = EmbeddedChannel(handler: WriteProgressHandler(idleTimeout: .seconds(30), gate: gate))
        let frame = Self.frame()
        channel.write(IOData.byteBuffer(frame), promise: nil)
        #expect(gate.bytesInUse == frame.capacity)
        channel.flush()
        var received = ByteBuffer()
        var sharing = 0
        let storage = frame.withVeryUnsafeBytes { $0 }
        while case .byteBuffer(var piece)? = try channel.readOutbound(as: IOData.self) {
            piece.withUnsafeReadableBytes { bytes in
                if let start = bytes.baseAddress, storage.baseAddress! <= start, start < storage.baseAddress! + storage.count { sharing += 1 }
            }
            received.writeBuffer(&piece)
        }
        #expect(received == frame)
        #expect(sharing == Self.frameBytes / WriteProgressHandler.sliceBytes, "pieces copied out of the frame's storage")
        #expect(gate.bytesInUse == 0)
        _ = try channel.finish()
    }
}
#endif
