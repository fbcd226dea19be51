import Foundation
import PostgresNIO
import Synchronization

/// Runs a connection's work so that it ends when the connection does.
///
/// PostgresNIO hands a query to its channel without a write promise; once the channel has
/// closed (the server went away, a network error, the deadline's close), the query's own
/// promise is dropped unanswered, so a query started on a closed connection never returns (a
/// debug build traps on the leaked promise instead). A round cut mid-transaction was seen
/// waiting forever on its ROLLBACK that way. The work therefore runs in a task of its own,
/// and the caller gets its result, or an error as soon as the connection closes or the deadline
/// passes, whichever comes first; the connection is then closed, and a stuck query is left to
/// the process (it holds no lock: the server rolls back a cut transaction).
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
        private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

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
