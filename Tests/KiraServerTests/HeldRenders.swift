#if Server
import KiraFiles
import KiraImage
@testable import KiraServer

/// A server's render function that renders nothing: each render waits until the test releases
/// it with the bytes it is to return, so that a test holds renders open as long as it needs.
final class HeldRenders: Sendable {
    private struct State {
        var waiting: [CheckedContinuation<[UInt8], any Error>] = []
        var started = 0
    }

    private let state = Locked(State())

    /// What the server calls to render.
    var render: FrameService.Render {
        { _, _ in
            try await withCheckedThrowingContinuation { continuation in
                self.state.withLock { state in
                    state.waiting.append(continuation)
                    state.started += 1
                }
            }
        }
    }

    /// Renders started so far.
    var started: Int { state.withLock { $0.started } }

    /// Waits (in real time, at most `seconds`) until `count` renders have started.
    func waitForStarts(_ count: Int, seconds: Double = 60) async throws {
        for _ in 0..<Int(seconds * 200) where started < count { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// Ends every render waiting now with `bytes`.
    func release(with bytes: [UInt8]) {
        for continuation in state.withLock({ state in
            defer { state.waiting = [] }
            return state.waiting
        }) { continuation.resume(returning: bytes) }
    }
}

/// A render function that answers at once with `bytes`.
func immediateRender(_ bytes: [UInt8]) -> FrameService.Render {
    { _, _ in bytes }
}
#endif
