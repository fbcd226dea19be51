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
public struct KeychainContext: Sendable {
    package let file: KeychainFile
    package let identity: ClientIdentity

    public init(file: KeychainFile, identity: ClientIdentity) {
        self.file = file
        self.identity = identity
    }

    @TaskLocal private static var taskContext: KeychainContext?
    private static let processContext = Locked<KeychainContext?>(nil)

    /// The context for the calling task: the task's own, else the process's, else the default
    /// keychain opened now.
    package static func current() throws(KeychainStoreError) -> KeychainContext {
        if let context = taskContext { return context }
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

    /// Async form of ``withContext(_:_:)``.
    public static func withContext<T>(_ context: KeychainContext, _ body: () async throws -> T) async rethrows -> T {
        try await $taskContext.withValue(context, operation: body)
    }
}
