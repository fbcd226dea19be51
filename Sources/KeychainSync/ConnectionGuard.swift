#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import PostgresNIO
import KeychainStore

/// Runs a connection's work so that it ends when the connection does.
///
/// PostgresNIO (1.33) hands a query to its channel without a write promise; once the channel has
/// closed (the server went away, a network error, the deadline's close), nothing answers the
/// query's own promise, so a query started on a closed connection never returns (seen with a
/// backend terminated inside a transaction: the next statement waited forever). A push cut
/// mid-transaction hung that way on its ROLLBACK, and the schema migration at connect too.
/// The work therefore runs in a task of its own, and the caller gets its result, or an error as
/// soon as the connection closes or the deadline passes, whichever comes first; the connection
/// is then closed, and a stuck query is left behind in its task (it holds no lock: the server
/// rolls back a cut transaction).
enum ConnectionGuard {
    /// The value of `work` (a task running a connection's work), or an error as soon as the
    /// connection closes or `deadline` seconds pass; the connection is closed on the deadline.
    static func value<T: Sendable>(of work: Task<T, any Error>, on connection: PostgresConnection, deadline: Double) async throws -> T {
        let outcome = Once<T>()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            outcome.set(continuation)
            let timer = Task {
                try await Task.sleep(nanoseconds: UInt64(deadline * 1e9))
                outcome.resume(.failure(SyncConnectionError.timedOut("the work was not done after \(Int(deadline)) s")))
                work.cancel()
                try? await connection.close()
            }
            connection.closeFuture.whenComplete { _ in
                timer.cancel()
                // Work that is finishing (its last answer already read) reports its own result.
                Task {
                    try? await Task.sleep(nanoseconds: 200_000_000)
                    outcome.resume(.failure(SyncConnectionError.unreachable("the connection to the server was lost")))
                }
            }
            Task {
                let result = await work.result
                timer.cancel()
                outcome.resume(result)
            }
        }
    }

    /// A continuation resumed by whichever outcome comes first; later ones are dropped.
    final class Once<T: Sendable>: Sendable {
        private let continuation = Locked<CheckedContinuation<T, any Error>?>(nil)

        func set(_ continuation: CheckedContinuation<T, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ result: Result<T, any Error>) {
            let first = continuation.withLock { held -> CheckedContinuation<T, any Error>? in
                defer { held = nil }
                return held
            }
            first?.resume(with: result)
        }
    }
}
#endif
