import CSQLiteBench
import Foundation

/// A bare SQLite connection with cached prepared statements: just enough for the floor.
final class RawSQLite {
    private var handle: OpaquePointer?
    private var cache: [String: OpaquePointer] = [:]

    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchFailure("cannot open \(path)")
        }
    }

    deinit {
        for statement in cache.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchFailure("sqlite: \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// The fourth column (the plan step's text) of every row `sql` returns.
    func planRows(_ sql: String) throws -> [String] {
        var raw: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &raw, nil) == SQLITE_OK, let raw else {
            throw BenchFailure("sqlite prepare: \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(raw) }
        var rows: [String] = []
        while sqlite3_step(raw) == SQLITE_ROW {
            if let text = sqlite3_column_text(raw, 3) { rows.append(String(cString: text)) }
        }
        return rows
    }

    enum Value { case int(Int64), text(String), blob([UInt8]), real(Double) }

    /// Runs one statement (in its own implicit transaction unless one is open); returns the
    /// bytes of the first column of the first row, if any, and the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ values: [Value]) throws -> (firstBlob: [UInt8]?, changes: Int) {
        let statement = try prepared(sql, values)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        var first: [UInt8]?
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw BenchFailure("sqlite step: \(String(cString: sqlite3_errmsg(handle)))") }
            if first == nil, let bytes = sqlite3_column_blob(statement, 0) {
                let count = Int(sqlite3_column_bytes(statement, 0))
                first = Array(UnsafeRawBufferPointer(start: bytes, count: count))
            }
        }
        return (first, Int(sqlite3_changes(handle)))
    }

    /// Runs a query; returns its first row's first `columns` columns as bytes (NULL as none),
    /// or nil when it returned no row.
    func firstRow(_ sql: String, _ values: [Value], columns: Int) throws -> [[UInt8]]? {
        let statement = try prepared(sql, values)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        let rc = sqlite3_step(statement)
        if rc == SQLITE_DONE { return nil }
        guard rc == SQLITE_ROW else { throw BenchFailure("sqlite step: \(String(cString: sqlite3_errmsg(handle)))") }
        return (0..<Int32(columns)).map { column in
            guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))))
        }
    }

    /// The statement for `sql` (prepared once, then kept), with `values` bound.
    private func prepared(_ sql: String, _ values: [Value]) throws -> OpaquePointer {
        let statement: OpaquePointer
        if let cached = cache[sql] {
            statement = cached
        } else {
            var raw: OpaquePointer?
            guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil) == SQLITE_OK, let raw else {
                throw BenchFailure("sqlite prepare: \(String(cString: sqlite3_errmsg(handle)))")
            }
            cache[sql] = raw
            statement = raw
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .int(let v): sqlite3_bind_int64(statement, index, v)
            case .real(let v): sqlite3_bind_double(statement, index, v)
            case .text(let v): sqlite3_bind_text(statement, index, v, -1, csqlitebench_transient())
            case .blob(let v): sqlite3_bind_blob(statement, index, v, Int32(v.count), csqlitebench_transient())
            }
        }
        return statement
    }
}

/// The linked SQLite's version string.
func sqliteVersion() -> String { String(cString: sqlite3_libversion()) }

extension RawSQLite {
    /// SQLite's plan for `sql`, as the detail column of EXPLAIN QUERY PLAN, one step per line.
    func queryPlan(_ sql: String) throws -> String {
        return try planRows("EXPLAIN QUERY PLAN " + sql).joined(separator: "; ")
    }
}
