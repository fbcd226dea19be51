import Foundation

extension SQLiteConnection {
    /// Copies the WAL into the database file and truncates the WAL to nothing, so that page
    /// images written before (old key wrappings, deleted secrets) no longer sit in it. Best effort:
    /// while another connection reads an older snapshot the checkpoint cannot finish, and it
    /// completes at a later checkpoint; the call's own commit is durable either way.
    func checkpointTruncating() {
        try? execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
