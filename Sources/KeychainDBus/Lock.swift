#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads behind a POSIX mutex (as KeychainStore's `Locked`, which this
/// module does not depend on: ThreadSanitizer sees pthread mutexes, not the standard `Mutex`).
final class Lock<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ initialValue: sending Value) {
        value = initialValue
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        #if DEBUG
        // Debug builds check how the lock is used: locking it again from inside `withLock`,
        // which the standard library's `Mutex` stops the program for, then fails the
        // precondition in `withLock` instead of hanging.
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        #else
        let status = pthread_mutex_init(mutex, nil)
        #endif
        // Initialising cannot fail with these attributes; a failure would mean memory corruption.
        precondition(status == 0, "pthread_mutex_init failed (\(status))")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Not reentrant (a debug build stops, a release build deadlocks).
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed (\(locked); EDEADLK: taken again by the thread holding it)")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
