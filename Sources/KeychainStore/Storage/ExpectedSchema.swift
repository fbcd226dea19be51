import Foundation

/// One entry of a database's `sqlite_master`: a table, index, view or trigger.
struct SchemaObject: Equatable, Sendable {
    let type: String
    let name: String
    /// The table an index or trigger belongs to (for a table, its own name).
    let table: String
    /// The statement that created it; nil for the indexes SQLite makes for UNIQUE and PRIMARY KEY.
    let sql: String?
}

/// Every object the engine puts in a keychain's schema, so that opening a file can refuse
/// anything else (KeychainFile+SchemaAudit.swift).
///
/// The item tables' objects come from ``ItemTable``, the single source of their SQL. They are
/// recorded by running that SQL in a database in memory and reading back what SQLite stored, so
/// the comparison is with SQLite's own rendering of the engine's statements.
enum ExpectedSchema {
    /// The settings table (the keychain's identity and, since schema 5, the keybag record). Its
    /// definition has not changed since the first schema.
    static let settingsSQL = "CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);"

    /// The keybag table of schemas 1 to 4, one wrapped key per protection class. Its definition
    /// never changed. Schema 5 drops it (LegacyKeybag.swift); while it is there it must be this.
    static let keybagSQL = "CREATE TABLE keybag (class INTEGER PRIMARY KEY, wrapping INTEGER NOT NULL, wrapped BLOB NOT NULL);"

    /// The first schema version whose item tables and indexes are exactly those ``ItemTable``
    /// makes today. Files of this version or later are compared statement by statement; older
    /// ones by name (see ``KeychainFile/auditSchema(_:path:)`` for why that is enough). Raise it
    /// together with any change to ItemTable's SQL, with an upgrade that rebuilds what changed.
    static let itemLayoutSince: Int64 = 4

    /// The objects of a keychain of the current layout, by name; nil only if SQLite could not
    /// run the engine's own SQL, which the audit reports as an internal error.
    static let current: [String: SchemaObject]? = try? recordCurrent()

    private static func recordCurrent() throws(KeychainStoreError) -> [String: SchemaObject] {
        let db = try SQLiteConnection(path: ":memory:")
        try db.applyDefensiveSettings()
        try db.execute(settingsSQL)
        try db.execute(keybagSQL)
        for itemClass in ItemClass.allCases { try db.execute(ItemTable(itemClass).createSQL) }
        let statement = try db.statement("SELECT type, name, tbl_name, sql FROM sqlite_master")
        var objects: [String: SchemaObject] = [:]
        while try statement.step() {
            let object = SchemaObject(type: statement.text(0) ?? "", name: statement.text(1) ?? "",
                                      table: statement.text(2) ?? "", sql: statement.text(3))
            objects[object.name] = object
        }
        db.resetAll()
        return objects
    }

    /// The item tables and `<table>_refs`, by name.
    static var itemTableNames: Set<String> {
        Set(ItemClass.allCases.flatMap { [ItemTable($0).name, ItemTable($0).referencesName] })
    }

    /// Index names a file older than ``itemLayoutSince`` may hold, each with its table: today's
    /// indexes and those of schemas 1 and 2 that the upgrade drops.
    static var olderIndexes: [String: String] {
        var indexes: [String: String] = [:]
        for itemClass in ItemClass.allCases {
            let table = ItemTable(itemClass)
            for name in table.olderIndexesToDrop { indexes[name] = table.name }
        }
        for object in (current ?? [:]).values where object.type == "index" && object.sql != nil {
            indexes[object.name] = object.table
        }
        return indexes
    }

    /// Tables SQLite makes by itself: statistics for its query planner and AUTOINCREMENT
    /// counters. The engine makes none of them, but their contents cannot run code or change
    /// what a statement writes.
    static func isSQLiteOwnTable(_ name: String) -> Bool {
        name == "sqlite_sequence" || name.hasPrefix("sqlite_stat")
    }

    /// SQL text as compared: whitespace runs as one space, no trailing semicolon, no
    /// `IF NOT EXISTS` (SQLite drops it when it records a statement), and the table's own name
    /// unquoted (renaming a table, as the upgrade to schema 4 does, records it in quotes).
    static func normalised(_ sql: String?, name: String) -> String? {
        guard let sql else { return nil }
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        while text.hasSuffix(";") { text = String(text.dropLast()).trimmingCharacters(in: .whitespaces) }
        for kind in ["TABLE", "INDEX"] {
            text = text.replacingOccurrences(of: "CREATE \(kind) IF NOT EXISTS ", with: "CREATE \(kind) ")
        }
        let quoted = "CREATE TABLE \"\(name)\" "
        if text.hasPrefix(quoted) { text = "CREATE TABLE \(name) " + text.dropFirst(quoted.count) }
        return text
    }
}
