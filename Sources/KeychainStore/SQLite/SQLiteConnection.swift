internal import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One SQLite connection. Not thread-safe: the engine lends it out under a lock, never shares it.
package final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// Statements handed out since the last ``resetAll()``. A statement stopped before its last
    /// row stays active and keeps the connection on an old snapshot of the database (other
    /// processes' commits would be invisible, and writes would fail with SQLITE_BUSY_SNAPSHOT),
    /// so every operation ends by resetting them.
    private var lent: [SQLiteStatement] = []
    let path: String

    /// Opens an existing database file (the engine creates the file itself, with the right mode).
    package init(path: String, readOnly: Bool = false) throws(KeychainStoreError) {
        self.path = path
        var db: OpaquePointer?
        // No mutex of SQLite's own around the connection: this class is not thread-safe anyway
        // (its statement cache), so every owner already serializes its use (KeychainFile through
        // its state lock; the others are never shared), and SQLite's per-call lock cost a
        // keychaind lookup about a hundred lock/unlock pairs.
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE)
            | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX
        var rc = sqlite3_open_v2(path, &db, flags, nil)
        #if DEBUG
        if rc == SQLITE_OK, let injected = FaultInjection.fault(.sqliteOpen) { rc = injected }
        #endif
        handle = db
        guard rc == SQLITE_OK else {
            let error = SQLiteConnection.error(rc, db, context: "open")
            sqlite3_close_v2(db)
            handle = nil
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Closes the connection now rather than at deinit, so that SQLite checkpoints the WAL into
    /// the file and removes it before the caller goes on (used when creating a keychain).
    package func close() throws(KeychainStoreError) {
        lent.removeAll()
        statements.removeAll()
        let rc = sqlite3_close(handle)
        guard rc == SQLITE_OK else { throw SQLiteConnection.error(rc, handle, context: "close") }
        handle = nil
    }

    /// Runs SQL that returns no rows (may hold several statements).
    package func execute(_ sql: String) throws(KeychainStoreError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw SQLiteConnection.error(rc, handle, context: "exec") }
    }

    /// Runs a transaction-control statement, where the debug fault seam can make it fail as a
    /// full disk, an I/O error or an expired busy timeout would.
    private func control(_ sql: String, point: Point) throws(KeychainStoreError) {
        #if DEBUG
        let injected: FaultPlan.Point = point == .begin ? .sqliteBegin : .sqliteCommit
        if let rc = FaultInjection.fault(injected) {
            throw SQLiteConnection.error(rc, handle, context: point == .begin ? "begin" : "commit")
        }
        #endif
        // Prepared once and kept, like every other statement: sqlite3_exec would parse the SQL
        // again on each call, twice per operation. Not lent: it resets itself as it runs.
        let rc = try prepared(sql).runControl()
        guard rc == SQLITE_DONE || rc == SQLITE_OK else {
            throw SQLiteConnection.error(rc, handle, context: point == .begin ? "begin" : "commit")
        }
    }

    private enum Point { case begin, commit }

    /// A prepared statement for `sql`, reused across calls (reset and cleared of bindings).
    package func statement(_ sql: String) throws(KeychainStoreError) -> SQLiteStatement {
        let statement = try prepared(sql)
        statement.reset()
        lent.append(statement)
        return statement
    }

    /// The cached statement for `sql`, prepared on first use.
    private func prepared(_ sql: String) throws(KeychainStoreError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw SQLiteConnection.error(rc, handle, context: "prepare") }
        let statement = SQLiteStatement(raw, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Resets every statement lent since the last call, ending any read they left open.
    func resetAll() {
        for statement in lent { statement.reset() }
        lent.removeAll(keepingCapacity: true)
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    /// Writers take the lock up front (IMMEDIATE) so two processes never deadlock upgrading.
    package func transaction<T>(write: Bool, _ body: () throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        try control(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED", point: .begin)
        do {
            let result = try body()
            resetAll()
            try control("COMMIT", point: .commit)
            return result
        } catch {
            resetAll()
            // A failed COMMIT may leave the transaction open (SQLITE_BUSY) or have rolled it back
            // already (I/O error, full disk); either way nothing of it may survive.
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    func makeError(_ rc: Int32, context: String) -> KeychainStoreError {
        SQLiteConnection.error(rc, handle, context: context)
    }

    /// Maps an SQLite result code to Apple's status, as Security does when an error of its database
    /// layer becomes an `OSStatus` (`SecErrorGetOSStatus` in `SecItem.c`): CONSTRAINT → duplicate,
    /// READONLY → read-only, IOERR → I/O, NOMEM → allocate, MISMATCH → no such attribute, INTERNAL
    /// → internal component, everything else → not available. A full disk is "not available" too,
    /// as on Apple; the reason names it. Ours alone: CORRUPT and NOTADB are errSecDecode, the
    /// status of every other kind of damage.
    static func error(_ rc: Int32, _ db: OpaquePointer?, context: String) -> KeychainStoreError {
        // SQLite's message names tables and columns, never bound values, so it carries no secrets.
        // The connection's message describes its last real failure; a code from elsewhere (the
        // fault seam, a failed open) is described by SQLite's text for the code itself.
        let current = db.map { sqlite3_extended_errcode($0) }
        let message: String
        if let db, current == rc, let text = sqlite3_errmsg(db) {
            message = String(cString: text)
        } else {
            message = sqlite3_errstr(rc).map { String(cString: $0) } ?? "unknown"
        }
        let reason = "sqlite \(context) failed (\(rc)): \(message)"
        switch rc & 0xFF {
        case SQLITE_CONSTRAINT: return .duplicateItem
        case SQLITE_READONLY: return .readOnly(reason)
        case SQLITE_IOERR: return .io(reason)
        case SQLITE_FULL: return .notAvailable("the disk is full: " + reason)
        case SQLITE_NOMEM: return .allocate(reason)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .decode(reason)
        case SQLITE_MISMATCH: return .init(status: SecStatus.noSuchAttr, reason: reason)
        case SQLITE_INTERNAL: return .init(status: SecStatus.internalComponent, reason: reason)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .notAvailable("the keychain stayed busy (another process held it past the timeout): " + reason)
        default: return .notAvailable(reason)
        }
    }
}
