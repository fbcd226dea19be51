/// The SQL of one item class's table.
///
/// Columns: `rowid` (insertion order), `persistref` (the item's 16-byte identity, which names its
/// row: see RowReference.swift; not indexed), `pk`
/// (the blind indexes of the lookup pair, then that of the whole primary key: UNIQUE, so the
/// database itself refuses duplicates, and ordered so that it also serves lookups by the pair),
/// `agrp` (blind index of the access group), `keyclass`, `sync`, `tomb` in the clear (as Apple
/// has them), one `i_<attr>` blind-index column per searchable attribute, and the two sealed
/// blobs `meta` (attributes) and `secret`.
struct ItemTable {
    let itemClass: ItemClass
    let schema: ItemSchema
    let indexed: [AttributeDescriptor]
    /// Each indexed attribute's position in ``indexed``, by name.
    let indexedPositions: [String: Int]
    /// The primary key's attributes, in the schema's order.
    let primaryKeyAttributes: [AttributeDescriptor]

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
        let schema = itemClass.schema
        self.itemClass = itemClass
        self.schema = schema
        let indexed = schema.indexedAttributes
        self.indexed = indexed
        self.indexedPositions = Dictionary(uniqueKeysWithValues: indexed.enumerated().map { ($0.element.name, $0.offset) })
        self.primaryKeyAttributes = schema.primaryKey.map { schema.attribute($0)! }
        let columns = ItemTable.columns(indexed)
        self.insertSQL = "INSERT INTO \(itemClass.code) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    var name: String { itemClass.code }

    /// The table of references that do not name their row (RowReference.swift).
    var referencesName: String { "\(itemClass.code)_refs" }

    /// Every column an insert sets, the row number first (it is part of the reference, so the
    /// engine chooses it).
    private static func columns(_ indexed: [AttributeDescriptor]) -> [String] {
        ["rowid", "persistref", "pk", "agrp", "keyclass", "sync", "tomb"] + indexed.map(\.columnName) + ["meta", "secret"]
    }

    var createSQL: String {
        ([tableSQL(named: name), referencesSQL] + indexSQL).joined(separator: "\n")
    }

    /// The table itself. No AUTOINCREMENT: rowids of live rows still only grow, which is all
    /// insertion order needs, and every insert is spared a write to sqlite_sequence. No index
    /// on `persistref` (schema 4): a reference names its row.
    private func tableSQL(named table: String) -> String {
        let indexColumns = indexed.map { "\($0.columnName) BLOB" }.joined(separator: ", ")
        return """
            CREATE TABLE \(table) (rowid INTEGER PRIMARY KEY, persistref BLOB NOT NULL, \
            pk BLOB NOT NULL UNIQUE, agrp BLOB NOT NULL, keyclass INTEGER NOT NULL, \
            sync INTEGER NOT NULL DEFAULT 0, tomb INTEGER NOT NULL DEFAULT 0, \(indexColumns), \
            meta BLOB NOT NULL, secret BLOB);
            """
    }

    private var referencesSQL: String {
        "CREATE TABLE IF NOT EXISTS \(referencesName) (persistref BLOB PRIMARY KEY, rowid INTEGER NOT NULL) WITHOUT ROWID;"
    }

    /// SQL that rebuilds a schema 1-3 table as schema 4's, rows and row numbers unchanged: the
    /// same table without the UNIQUE index on `persistref` (SQLite cannot drop a constraint's
    /// index, only the table). Every existing reference goes to `<table>_refs`, since none of
    /// them names its row. The indexes are made again afterwards (``indexSQL``).
    var referenceUpgradeSQL: String {
        let columns = ItemTable.columns(indexed).joined(separator: ", ")
        return [
            tableSQL(named: "\(name)_schema4"),
            "INSERT INTO \(name)_schema4 (\(columns)) SELECT \(columns) FROM \(name);",
            referencesSQL,
            "INSERT OR IGNORE INTO \(referencesName) (persistref, rowid) SELECT persistref, rowid FROM \(name);",
            "DROP TABLE \(name);",
            "ALTER TABLE \(name)_schema4 RENAME TO \(name);",
        ].joined(separator: "\n")
    }

    /// The lookup indexes (schema 3). Each index is one more B-tree page that every insert
    /// writes to the WAL and syncs (Benchmarks/notes/2026-11-21-add-against-the-floor.md), so there
    /// is one only where lookups need it:
    /// - the usual lookup names both halves of a pair (service and account; server and
    ///   account). The primary-key index answers it: `pk` begins with the two halves' blind
    ///   indexes (``KeychainFile/State/primaryKeyIndex(_:_:)``), so a lookup by the first half,
    ///   or by both, is a range of that one index;
    /// - the second half alone (account) or, for keys, the application label: one index;
    /// - attributes that are usually absent (view hint, token, group-sharing group, label) get
    ///   a partial index, which rows without them never touch. SQLite still uses it for
    ///   `column = ?`, which implies `column IS NOT NULL`.
    /// Attributes with a handful of values (protocol, port, key class, key size...) have none: an
    /// index on them narrows nothing, and SQLite, which keeps no statistics here, might prefer it
    /// to a good one.
    var indexSQL: [String] {
        var sql: [String] = []
        for attribute in indexed where attribute.name == singleIndexed || ItemTable.usuallyAbsent.contains(attribute.name) {
            let partial = ItemTable.usuallyAbsent.contains(attribute.name) ? " WHERE \(attribute.columnName) IS NOT NULL" : ""
            sql.append("CREATE INDEX IF NOT EXISTS \(name)_\(attribute.name) ON \(name)(\(attribute.columnName))\(partial);")
        }
        return sql
    }

    /// Attributes most items do not have.
    static let usuallyAbsent: Set<String> = ["vwht", "tkid", AttributeName.sharingGroup, AttributeName.label]

    /// The one attribute, besides the pair, that lookups name on its own often enough to index.
    var singleIndexed: String {
        switch itemClass {
        case .genericPassword, .internetPassword: return AttributeName.account
        case .key: return "klbl"
        case .certificate: return "slnr"
        }
    }

    /// Indexes of schemas 1 and 2 that schema 3 does without, or rebuilds as partial ones.
    /// Schema 1 had one per primary-key attribute, the label and the access group; schema 2
    /// replaced some with partial ones and added the pair's.
    var olderIndexesToDrop: [String] {
        let perAttribute = ([AttributeName.accessGroup, AttributeName.label] + schema.primaryKey).filter { $0 != singleIndexed }
        return perAttribute.map { "\(name)_\($0)" } + ["\(name)_\(lookupPair.0)_\(lookupPair.1)"]
    }

    /// SQL that rewrites the `pk` of a schema 1 or 2 row (the primary key's blind index alone)
    /// into schema 3's, with the pair's blind indexes in front. No key is needed: both are in
    /// the row's columns, and a row always has them (they are primary-key attributes, which
    /// every add fills with their defaults).
    var primaryKeyUpgradeSQL: String {
        let (first, second) = lookupPair
        // `||` makes TEXT even of blobs (with the same bytes), and TEXT never equals a BLOB.
        return "UPDATE \(name) SET pk = CAST(coalesce(i_\(first), zeroblob(16)) || coalesce(i_\(second), zeroblob(16)) || pk AS BLOB)"
    }

    /// The two attributes most lookups name together.
    var lookupPair: (String, String) {
        switch itemClass {
        case .genericPassword: return (AttributeName.service, AttributeName.account)
        case .internetPassword: return (AttributeName.server, AttributeName.account)
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
