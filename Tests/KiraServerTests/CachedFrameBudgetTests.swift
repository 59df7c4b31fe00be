#if Server
import KiraServerAPI
@testable import KiraServer
import NIOCore
import Testing

/// A frame both cached and queued for a client that does not read counts once against the memory
/// budget: in the cache's share while the cache keeps it, in the frames' share once it is let go.
@Suite struct CachedFrameBudgetTests {
    static let frameBytes = 1 << 20

    /// A service whose cache holds one frame of ``frameBytes``, whose renders make such a frame at once.
    static func service() throws -> FrameService {
        let configuration = ServerFixtures.configuration { $0.cacheBytes = frameBytes + frameBytes / 2 }
        let cards = try CardLibrary.load(directory: nil, textureBudget: configuration.memory.bytes - configuration.cacheBytes)
        return FrameService(configuration: configuration, cards: cards, metrics: ServerMetrics()) { _, _ in
            [UInt8](repeating: 7, count: frameBytes)
        }
    }

    static func frame(_ service: FrameService, tilt: Int) async throws -> ByteBuffer {
        guard case .frame(let frame, _, _) = try await service.answer(id: "sample", rawQuery: "tilt_x=\(tilt)&size=64x80", ifNoneMatch: nil) else {
            Issue.record("no frame")
            return ByteBuffer()
        }
        return frame
    }

    @Test func aCachedFrameQueuedForClientsCountsOnce() async throws {
        let service = try Self.service()
        let first = try await Self.frame(service, tilt: 1)
        let key = WriteProgressHandler.key(of: first)
        #expect(service.gate.bytesInUse == 0)
        // Two clients that do not read: the cache counts it already.
        service.gate.hold(key: key, bytes: first.capacity)
        service.gate.hold(key: key, bytes: first.capacity)
        #expect(service.gate.bytesInUse == 0)
        // Another frame pushes it out of the cache: still queued, it counts in the frames' share.
        let second = try await Self.frame(service, tilt: 2)
        #expect(service.cache.count == 1 && WriteProgressHandler.key(of: second) != key)
        #expect(service.gate.bytesInUse == first.capacity)
        service.gate.releaseHeld(key: key)
        #expect(service.gate.bytesInUse == first.capacity)
        service.gate.releaseHeld(key: key)
        #expect(service.gate.bytesInUse == 0)
    }

    @Test func aFrameQueuedThenCachedCountsOnce() {
        let gate = AdmissionGate(slots: 1, byteBudget: 1 << 30, maxWaiting: 1)
        gate.hold(key: 42, bytes: 1000)
        #expect(gate.bytesInUse == 1000)
        gate.setCached(key: 42, true)
        #expect(gate.bytesInUse == 0)
        gate.setCached(key: 42, false)
        #expect(gate.bytesInUse == 1000)
        gate.releaseHeld(key: 42)
        #expect(gate.bytesInUse == 0)
        // A buffer the cache keeps that no client holds adds nothing, kept or let go.
        gate.setCached(key: 7, true)
        gate.setCached(key: 7, false)
        #expect(gate.bytesInUse == 0)
    }
}
#endif
