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

    init(_ itemClass: ItemClass) {
        self.itemClass = itemClass
        self.schema = itemClass.schema
        self.indexed = schema.indexedAttributes
    }

    var name: String { itemClass.code }

    var createSQL: String {
        let indexColumns = indexed.map { "\($0.columnName) BLOB" }.joined(separator: ", ")
        var sql = """
            CREATE TABLE \(name) (rowid INTEGER PRIMARY KEY AUTOINCREMENT, persistref BLOB NOT NULL UNIQUE, \
            pk BLOB NOT NULL UNIQUE, agrp BLOB NOT NULL, keyclass INTEGER NOT NULL, \
            sync INTEGER NOT NULL DEFAULT 0, tomb INTEGER NOT NULL DEFAULT 0, \(indexColumns), \
            meta BLOB NOT NULL, secret BLOB);
            CREATE INDEX \(name)_agrp ON \(name)(agrp);
            """
        // Indexes on what lookups use: the primary-key attributes and the label.
        for attribute in indexed where attribute.isPrimaryKey || attribute.name == "labl" {
            sql += "\nCREATE INDEX \(name)_\(attribute.name) ON \(name)(\(attribute.columnName));"
        }
        // The usual lookup names both halves of a pair (service and account; server and
        // account). Without statistics SQLite would pick one single-column index and scan every
        // account of a service; a two-column index takes it straight to the row.
        if let pair = lookupPair {
            sql += "\nCREATE INDEX \(name)_\(pair.0)_\(pair.1) ON \(name)(i_\(pair.0), i_\(pair.1));"
        }
        return sql
    }

    /// The two attributes most lookups name together.
    var lookupPair: (String, String)? {
        switch itemClass {
        case .genericPassword: return ("svce", "acct")
        case .internetPassword: return ("srvr", "acct")
        case .key: return ("atag", "kcls")
        case .certificate: return ("issr", "slnr")
        }
    }

    /// Columns written for every row, in the order of ``insertSQL`` and ``updateSQL``.
    var writtenColumns: [String] {
        ["persistref", "pk", "agrp", "keyclass", "sync", "tomb"] + indexed.map(\.columnName) + ["meta", "secret"]
    }

    var insertSQL: String {
        let columns = writtenColumns
        return "INSERT INTO \(name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    var updateSQL: String {
        "UPDATE \(name) SET \(writtenColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE rowid = ?"
    }
}
