#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, guarded by a POSIX mutex: every read and write goes through
/// ``withLock(_:)``. The one lock of the package: the engine (which names it for the modules
/// above it) and the D-Bus layer use it alike.
///
/// Why not the standard library's `Mutex`: on Linux, when two threads contend, it hands the lock
/// over inside the kernel (a priority-inheritance futex), where ThreadSanitizer cannot see it.
/// The sanitizer then reports a race between two critical sections that never overlapped, and
/// once such false reports are tolerated a real race would pass unnoticed. ThreadSanitizer
/// intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so with this lock the sanitizer
/// run checks our locking for real. Uncontended, both cost one atomic operation each way.
package final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched between lock and unlock of `mutex`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ initialValue: sending Value) {
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

    /// Runs `body` with exclusive access to the value. Not reentrant: calling it again from
    /// inside `body` on the same lock stops a debug build and deadlocks a release build.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "pthread_mutex_lock failed (\(locked); EDEADLK: taken again by the thread holding it)")
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
