#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a pthread mutex, for state that threads share.
///
/// Used instead of Synchronization's `Mutex`: on Linux that one is built on futexes, which
/// ThreadSanitizer cannot see, so CI's TSan stage reported the guarded value's accesses from two
/// threads as a race (two frames' PNG encoders returning their scratch buffers). It sees pthread
/// locks.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    // Allocated: a pthread object must not move, and a stored property's address is not stable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
