#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for work that blocks in a system call (a pipe write, a pipe read).
///
/// Dispatch's global queues have about one thread per core: a worker parked in `write` to a
/// full pipe would take a core's worth of threads away from rendering and PNG encoding.
final class IOThread {
    private var thread: pthread_t?

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) throws(VideoError) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw .system("cannot start a thread", result)
        }
        thread = handle
    }

    /// Waits for the body to return.
    func join() {
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    deinit { join() }
}
