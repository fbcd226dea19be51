import Dispatch

/// Where the async operations run their blocking SecItem calls: a dedicated dispatch queue, off
/// Swift's cooperative thread pool, so a keychain busy with a slow disk or a waiting writer never
/// starves other tasks.
///
/// It is a task executor rather than a plain queue hop: the calling task keeps running, merely on
/// these threads, so task-local values travel with it. On Linux the task-local keychain context
/// (which keychain file, which identity) therefore applies inside, exactly as in the caller, with
/// no need to capture and re-enter it.
final class KeychainExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the only state is immutable (a queue and a key), both thread-safe.

    /// The executor every Keychain shares.
    static let shared = KeychainExecutor()

    private let queue = DispatchQueue(label: "swift-keychain.KeychainKit", qos: .userInitiated, attributes: .concurrent)
    private let marker = DispatchSpecificKey<Bool>()

    private init() {
        queue.setSpecific(key: marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Whether the calling code runs on this executor's queue (for tests).
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: marker) == true
    }

    /// Runs `body` on this executor and returns its result, suspending (not blocking) the caller.
    ///
    /// `@concurrent` keeps this function off the caller's actor, so the closure below has no
    /// isolation and `withTaskExecutorPreference` runs it on `shared`, even when the caller is the
    /// main actor.
    @concurrent
    static func run<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        try await withTaskExecutorPreference(shared) { try body() }
    }
}
