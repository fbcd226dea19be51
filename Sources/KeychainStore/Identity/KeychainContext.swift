#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which keychain file the SecItem API of this process uses, and as whom.
///
/// Zero configuration: the first call opens (and if needed creates) the default keychain,
/// ``KeychainPaths/defaultKeychain(environment:)``, with the identity from the environment
/// (``ClientIdentity/fromEnvironment(_:)``). A process can choose another with
/// ``setProcessDefault(_:)``; a task (a test, a request handler) can choose one for itself only
/// with ``withContext(_:_:)``.
///
/// When the process is served (``KeychainKeeper``), calls without a context of their own go to
/// the keeper instead (``keeperSocket()``), and ``current()`` refuses to open the file: a
/// context set here is an explicit choice of a file and always wins, which is also how keychaind
/// itself answers the calls it is sent.
public struct KeychainContext: Sendable {
    package let file: KeychainFile
    package let identity: ClientIdentity

    public init(file: KeychainFile, identity: ClientIdentity) {
        self.file = file
        self.identity = identity
    }

    @TaskLocal private static var taskContext: KeychainContext?
    @TaskLocal private static var taskKeeper: KeychainKeeper?
    private static let processContext = Locked<KeychainContext?>(nil)
    /// Read from the environment once, on the first call that needs it.
    private static let processKeeper = Locked<Result<KeychainKeeper, KeychainStoreError>?>(nil)

    /// The keeper's socket when the calling task's SecItem calls go to keychaind; nil when they
    /// are made here, on a file (a context was chosen, or the process is embedded).
    package static func keeperSocket() throws(KeychainStoreError) -> String? {
        if taskContext != nil { return nil }
        if let keeper = taskKeeper { return keeper.socketPath }
        if processContext.withLock({ $0 != nil }) { return nil }
        let keeper = processKeeper.withLock { keeper in
            if let keeper { return keeper }
            let read = Result { () throws(KeychainStoreError) in try KeychainKeeper.fromEnvironment() }
            keeper = read
            return read
        }
        return try keeper.get().socketPath
    }

    /// The context for the calling task: the task's own, else the process's, else the default
    /// keychain opened now. A served process never opens a file here: it is refused.
    package static func current() throws(KeychainStoreError) -> KeychainContext {
        if let context = taskContext { return context }
        if let socket = try keeperSocket() {
            throw .notAvailable("this process is served by keychaind (\(socket)), and this call is not one the keeper answers yet")
        }
        return try processContext.withLock { context throws(KeychainStoreError) -> KeychainContext in
            if let context { return context }
            let opened = KeychainContext(file: try KeychainFile.open(at: KeychainPaths.defaultKeychain()),
                                         identity: try ClientIdentity.fromEnvironment())
            context = opened
            return opened
        }
    }

    /// Makes `context` the one every SecItem call of this process uses (nil: back to the default).
    public static func setProcessDefault(_ context: KeychainContext?) {
        processContext.withLock { $0 = context }
    }

    /// Runs `body` with SecItem calls of this task (and its child tasks) going to `context`.
    public static func withContext<T>(_ context: KeychainContext, _ body: () throws -> T) rethrows -> T {
        try $taskContext.withValue(context, operation: body)
    }

    /// Runs `body` with SecItem calls of this task going to the keeper `keeper` (embedded: to the
    /// process's own file), whatever the environment says. For tests that run the same calls
    /// both ways.
    package static func withKeeper<T>(_ keeper: KeychainKeeper, _ body: () throws -> T) rethrows -> T {
        try $taskKeeper.withValue(keeper, operation: body)
    }

    /// Async form of ``withContext(_:_:)``.
    public static func withContext<T>(_ context: KeychainContext, _ body: () async throws -> T) async rethrows -> T {
        try await $taskContext.withValue(context, operation: body)
    }
}
