/// The SQL of one item class's table.
///
/// Columns: `rowid` (insertion order), `persistref` (the item's random 16-byte identity), `pk`
/// (blind index of the whole primary key, UNIQUE, so the database itself refuses duplicates),
/// `agrp` (blind index of the access group), `keyclass`, `sync`, `tomb` in the clear (as Apple
/// has them), one `i_<attr>` blind-index column per searchable attribute, and the two sealed
/// blobs `meta` (attributes) and `secret`.
struct ItemTable {
    let itemClass: ItemClass
    let schema: ItemSchema
    let indexed: [AttributeDescriptor]

    /// The SQL every insert runs, made once per class.
    let insertSQL: String

    /// The table of `itemClass` (built once per class: every call needs one).
    init(_ itemClass: ItemClass) {
        switch itemClass {
        case .genericPassword: self = ItemTable.genericPassword
        case .internetPassword: self = ItemTable.internetPassword
        case .certificate: self = ItemTable.certificate
        case .key: self = ItemTable.key
        }
    }

    private static let genericPassword = ItemTable(building: .genericPassword)
    private static let internetPassword = ItemTable(building: .internetPassword)
    private static let certificate = ItemTable(building: .certificate)
    private static let key = ItemTable(building: .key)

    private init(building itemClass: ItemClass) {
        self.itemClass = itemClass
        self.schema = itemClass.schema
        self.indexed = schema.indexedAttributes
        let columns = ["persistref", "pk", "agrp", "keyclass", "sync", "tomb"] + indexed.map(\.columnName) + ["meta", "secret"]
        self.insertSQL = "INSERT INTO \(itemClass.code) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    var name: String { itemClass.code }

    var createSQL: String {
        let indexColumns = indexed.map { "\($0.columnName) BLOB" }.joined(separator: ", ")
        // No AUTOINCREMENT: rowids of live rows still only grow, which is all insertion order
        // needs, and every insert is spared a write to sqlite_sequence.
        let table = """
            CREATE TABLE \(name) (rowid INTEGER PRIMARY KEY, persistref BLOB NOT NULL UNIQUE, \
            pk BLOB NOT NULL UNIQUE, agrp BLOB NOT NULL, keyclass INTEGER NOT NULL, \
            sync INTEGER NOT NULL DEFAULT 0, tomb INTEGER NOT NULL DEFAULT 0, \(indexColumns), \
            meta BLOB NOT NULL, secret BLOB);
            """
        return ([table] + indexSQL).joined(separator: "\n")
    }

    /// The lookup indexes (schema 2). Each index is one more B-tree page that every insert
    /// writes to the WAL and syncs, so there is one only where lookups need it:
    /// - the usual lookup names both halves of a pair (service and account; server and
    ///   account): a two-column index takes it straight to the row (with one-column indexes and
    ///   no statistics, SQLite would scan every account of a service); it also serves lookups by
    ///   its first column alone;
    /// - the other primary-key attributes and the label, each on its own;
    /// - attributes that are usually absent (view hint, token, group-sharing group, label) get
    ///   a partial index, which rows without them never touch. SQLite still uses it for
    ///   `column = ?`, which implies `column IS NOT NULL`.
    var indexSQL: [String] {
        var sql: [String] = []
        let pair = lookupPair
        sql.append("CREATE INDEX IF NOT EXISTS \(name)_\(pair.0)_\(pair.1) ON \(name)(i_\(pair.0), i_\(pair.1));")
        for attribute in indexed where attribute.isPrimaryKey || attribute.name == "labl" {
            guard attribute.name != pair.0 else { continue }
            let partial = ItemTable.usuallyAbsent.contains(attribute.name) ? " WHERE \(attribute.columnName) IS NOT NULL" : ""
            sql.append("CREATE INDEX IF NOT EXISTS \(name)_\(attribute.name) ON \(name)(\(attribute.columnName))\(partial);")
        }
        return sql
    }

    /// Attributes most items do not have.
    static let usuallyAbsent: Set<String> = ["vwht", "tkid", "ggrp", "labl"]

    /// Indexes of schema 1 that schema 2 replaces (by a partial one of the same name, or by the
    /// pair index), or drops (the access group index: a handful of values, so it never narrows
    /// a search, yet every insert wrote to it).
    var schema1IndexesToDrop: [String] {
        ["\(name)_agrp", "\(name)_\(lookupPair.0)"] + ItemTable.usuallyAbsent.map { "\(name)_\($0)" }
    }

    /// The two attributes most lookups name together.
    var lookupPair: (String, String) {
        switch itemClass {
        case .genericPassword: return ("svce", "acct")
        case .internetPassword: return ("srvr", "acct")
        case .key: return ("atag", "kcls")
        case .certificate: return ("issr", "slnr")
        }
    }


    /// An update of `columns` only: SQLite rewrites an index entry only for indexed columns that
    /// appear in the SET list, so a data-only update touches the table row and nothing else.
    func updateSQL(_ columns: [String]) -> String {
        "UPDATE \(name) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
    }
}
