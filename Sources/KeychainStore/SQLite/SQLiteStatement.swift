internal import CSQLite
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// A prepared statement owned by one connection.
package final class SQLiteStatement {
    private let raw: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ raw: OpaquePointer, connection: SQLiteConnection) {
        self.raw = raw
        self.connection = connection
    }

    deinit { sqlite3_finalize(raw) }

    package func reset() {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
    }

    package enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        case null
    }

    package func bind(_ values: [Value]) {
        for (offset, value) in values.enumerated() { bind(value, at: Int32(offset + 1)) }
    }

    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .integer(let v): sqlite3_bind_int64(raw, index, v)
        case .real(let v): sqlite3_bind_double(raw, index, v)
        case .text(let v): sqlite3_bind_text(raw, index, v, -1, csqlite_transient())
        case .blob(let v):
            v.withUnsafeBytes { buffer in
                // A zero-length blob must still bind as a blob, not as NULL.
                let base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
                _ = sqlite3_bind_blob(raw, index, base, Int32(buffer.count), csqlite_transient())
            }
        case .null: sqlite3_bind_null(raw, index)
        }
    }

    /// Advances to the next row; false when done.
    package func step() throws(KeychainStoreError) -> Bool {
        #if DEBUG
        if let injected = FaultInjection.fault(.sqliteStep, writes: sqlite3_stmt_readonly(raw) == 0) {
            throw connection.makeError(injected, context: "step")
        }
        #endif
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.makeError(rc, context: "step")
        }
    }

    /// Runs a transaction-control statement (BEGIN, COMMIT) and resets it; returns SQLite's
    /// result code. Kept out of ``step()``, whose debug fault seam is for data statements.
    func runControl() -> Int32 {
        let rc = sqlite3_step(raw)
        sqlite3_reset(raw)
        return rc
    }

    /// Runs a statement that returns no rows.
    package func run(_ values: [Value] = []) throws(KeychainStoreError) {
        bind(values)
        defer { sqlite3_reset(raw) }
        while try step() {}
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }
    package func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(raw, column) else { return nil }
        return String(cString: p)
    }
    package func blob(_ column: Int32) -> Data? {
        guard sqlite3_column_type(raw, column) != SQLITE_NULL else { return nil }
        let count = Int(sqlite3_column_bytes(raw, column))
        guard count > 0, let p = sqlite3_column_blob(raw, column) else { return Data() }
        return Data(bytes: p, count: count)
    }
}
