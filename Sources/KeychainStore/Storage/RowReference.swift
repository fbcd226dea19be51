#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Persistent references that name their own row (schema 4).
///
/// A reference is 16 bytes: the row's number (8 bytes, big-endian), then 8 random bytes.
/// Finding an item by its reference is then a lookup by row number, and the table needs no
/// index on `persistref`: one B-tree page less for every add to write and sync (what a page
/// costs: Benchmarks/notes/2026-11-21-add-against-the-floor.md). The row's stored `persistref`
/// must still equal the reference, so a reference outlives neither its item nor its row
/// number: an item added later under a freed row number gets other random bytes. Apple's own
/// references were the class and the row number for years (we still accept that legacy form),
/// so the number is no secret; the random half is what makes a reference impossible to guess.
///
/// A row whose reference does not name it (written before schema 4, or restored from a backup
/// with the reference it had elsewhere) has an entry in the class's `<table>_refs` table, which
/// the lookup consults too. Apple's references are opaque bytes, so callers see no difference.
extension KeychainFile.State {
    /// The number and reference for a row about to be inserted. Row numbers only grow while the
    /// last row lives (max + 1, read inside the write transaction, so no other writer can take it).
    func newRow(_ table: ItemTable) throws(KeychainStoreError) -> (rowid: Int64, reference: Data) {
        let statement = try db.statement("SELECT max(rowid) FROM \(table.name)")
        _ = try statement.step()
        let last = statement.int64(0)
        statement.reset()
        guard last < Int64.max else { throw .allocate("the \(table.name) table has used every row number") }
        return (last + 1, reference(rowid: last + 1, nonce: Data(try RandomReserve.bytes(8, from: writeRandom))))
    }

    /// The reference naming `rowid`, made with `nonce` (8 random bytes).
    func reference(rowid: Int64, nonce: Data) -> Data {
        var out = withUnsafeBytes(of: UInt64(bitPattern: rowid).bigEndian) { Data($0) }
        out.append(nonce)
        return out
    }

    /// The row number `reference` names, if it has the length of one of ours. A foreign or
    /// random reference gives some number; the stored-reference check turns that into "not
    /// found".
    func rowid(named reference: Data) -> Int64? {
        guard reference.count == 16 else { return nil }
        return Int64(bitPattern: reference.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// Whether `reference` names `rowid` by itself (otherwise it needs a `_refs` entry).
    func reference(_ reference: Data, names rowid: Int64) -> Bool {
        self.rowid(named: reference) == rowid
    }

    /// The SQL condition (and its arguments) selecting the row whose reference is `reference`.
    func referenceCondition(_ reference: Data, in table: ItemTable) -> (String, [SQLiteStatement.Value]) {
        // The row the reference names, or the one its `_refs` entry gives; either way the row's
        // own reference must be this one.
        ("rowid IN (?, (SELECT rowid FROM \(table.referencesName) WHERE persistref = ?)) AND persistref = ?",
         [.integer(rowid(named: reference) ?? 0), .blob(reference), .blob(reference)])
    }

    /// Whether a row of `table` already has `reference`.
    func isInUse(_ reference: Data, in table: ItemTable) throws(KeychainStoreError) -> Bool {
        let (condition, arguments) = referenceCondition(reference, in: table)
        let statement = try db.statement("SELECT 1 FROM \(table.name) WHERE \(condition)")
        statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step()
    }

    /// Deletes every row of `table` that meets `condition` (SQL over its columns), then the
    /// `_refs` entries that no longer name a row, so that bulk deletes (removing a password)
    /// leave none behind. One row at a time goes through ``deleteRow(_:rowid:persistentReference:)``.
    func deleteRows(_ table: ItemTable, where condition: String, _ arguments: [SQLiteStatement.Value] = []) throws(KeychainStoreError) {
        try db.statement("DELETE FROM \(table.name) WHERE \(condition)").run(arguments)
        guard db.changes > 0 else { return }
        let refs = table.referencesName
        try db.statement("""
            DELETE FROM \(refs) WHERE NOT EXISTS \
            (SELECT 1 FROM \(table.name) WHERE \(table.name).rowid = \(refs).rowid AND \(table.name).persistref = \(refs).persistref)
            """).run()
    }
}
