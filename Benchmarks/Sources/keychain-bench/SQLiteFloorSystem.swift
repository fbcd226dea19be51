import Foundation

/// The floor: the same operations as bare SQLite statements on the same disk, with the same
/// durability as the keychain (WAL, synchronous=FULL, one transaction per operation), a unique
/// index on the key, no encryption and no blind indexes.
final class SQLiteFloorSystem: KeyValueSystem {
    let name = "sqlite-floor"
    let db: RawSQLite
    let path: String

    init(path: String) throws {
        self.path = path
        db = try RawSQLite(path: path)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        try db.execute("""
            CREATE TABLE IF NOT EXISTS items (rowid INTEGER PRIMARY KEY, service TEXT NOT NULL,
              account TEXT NOT NULL, data BLOB NOT NULL, cdat REAL NOT NULL, mdat REAL NOT NULL,
              UNIQUE (service, account));
            """)
    }

    func fill(from: Int, to: Int) throws {
        try db.execute("BEGIN")
        for i in from..<to {
            try insert(WorkloadKeys.filler(i), WorkloadKeys.secret(i))
        }
        try db.execute("COMMIT")
    }

    private func insert(_ account: String, _ secret: [UInt8]) throws {
        let now = Date().timeIntervalSinceReferenceDate
        try db.run("INSERT INTO items (service, account, data, cdat, mdat) VALUES (?, ?, ?, ?, ?)",
                   [.text(WorkloadKeys.service), .text(account), .blob(secret), .real(now), .real(now)])
    }

    func add(account: String, secret: [UInt8]) throws { try insert(account, secret) }

    func lookup(account: String) throws {
        let row = try db.run("SELECT data FROM items WHERE service = ? AND account = ?",
                             [.text(WorkloadKeys.service), .text(account)])
        guard row.firstBlob?.count == 24 else { throw BenchFailure("floor lookup found nothing") }
    }

    func update(account: String, secret: [UInt8]) throws {
        let result = try db.run("UPDATE items SET data = ?, mdat = ? WHERE service = ? AND account = ?",
                                [.blob(secret), .real(Date().timeIntervalSinceReferenceDate), .text(WorkloadKeys.service), .text(account)])
        guard result.changes == 1 else { throw BenchFailure("floor update changed nothing") }
    }

    func delete(account: String) throws {
        let result = try db.run("DELETE FROM items WHERE service = ? AND account = ?", [.text(WorkloadKeys.service), .text(account)])
        guard result.changes == 1 else { throw BenchFailure("floor delete changed nothing") }
    }

    var bytesOnDisk: Int { databaseBytes(path) }
    var databasePath: String { path }
}
