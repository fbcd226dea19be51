extension KeychainFile {
    /// Refuses a file whose schema holds anything the engine did not create, before any other
    /// statement runs on it.
    ///
    /// Someone who can write the file but holds no key can still add to its schema, and SQLite
    /// runs the schema as part of the engine's statements: a trigger on `settings` could keep a
    /// key wrapped by the device key after a password was set, or copy key material aside on
    /// every change. The connection's defensive settings already keep triggers and views from
    /// running; this check also refuses what they do not cover, and makes the tampering visible
    /// instead of silently ignored:
    /// - triggers and views, outright: the engine makes none;
    /// - tables and indexes whose names the engine does not use;
    /// - for files of the current layout, tables and indexes whose statement differs from the
    ///   engine's (whitespace aside). A table's definition can carry CHECK constraints, DEFAULT
    ///   values, generated columns or `ON CONFLICT IGNORE` clauses, which can make a write of
    ///   the engine's vanish without an error; an index can be on an expression.
    ///
    /// Files older than ``ExpectedSchema/itemLayoutSince`` are checked by name only for their
    /// item tables and indexes: each older schema had its own statements, which this code no
    /// longer keeps, and the upgrade that follows rebuilds every item table and its indexes from
    /// the engine's own SQL (copying only the rows), so no planted definition survives it.
    /// `settings`, `keybag` and `<table>_refs`, whose definitions never changed, are compared in
    /// full whatever the version.
    ///
    /// A file of version 0 or newer than this code is left to `loadSchema`, which explains
    /// those better ("not a keychain", "newer version").
    ///
    /// - Throws: `errSecInvalidKeychain` (-25295) naming the first object that does not belong.
    static func auditSchema(_ db: SQLiteConnection, path: String) throws(KeychainStoreError) {
        let (version, objects) = try db.transaction(write: false) { () throws(KeychainStoreError) -> (Int64, [SchemaObject]) in
            let version = try userVersion(db)
            let statement = try db.statement("SELECT type, name, tbl_name, sql FROM sqlite_master")
            var objects: [SchemaObject] = []
            while try statement.step() {
                objects.append(SchemaObject(type: statement.text(0) ?? "", name: statement.text(1) ?? "",
                                            table: statement.text(2) ?? "", sql: statement.text(3)))
            }
            return (version, objects)
        }
        guard version > 0, version <= schemaVersion else { return }
        for object in objects {
            if let problem = schemaProblem(object, version: version, expected: ExpectedSchema.current) {
                throw invalidKeychain(path, problem + ": refusing to open")
            }
        }
    }

    /// Why `object` does not belong in a keychain of `version`, or nil when it does.
    private static func schemaProblem(_ object: SchemaObject, version: Int64,
                                      expected: [String: SchemaObject]) -> String? {
        let name = displayed(object.name)
        let kind = object.type == "index" ? "an index" : "a " + displayed(object.type, quoted: false)
        let planted = "contains \(kind) \(name) that this keychain never creates; it may have been planted"
        let altered = "contains \(kind) \(name) whose definition is not the one this keychain creates; it may have been altered"
        switch object.type {
        case "table", "index": break
        default: return planted  // triggers, views, and anything newer
        }
        if object.type == "table" && ExpectedSchema.isSQLiteOwnTable(object.name) { return nil }

        if let own = expected[object.name] {
            // Byte-equal statements (the usual case: SQLite recorded the same SQL) are equal once
            // normalised too, and spare the normalising, which was a fifth of a keychainctl call.
            let matches = own.type == object.type && own.table == object.table
                && (own.sql == object.sql
                    || ExpectedSchema.normalised(own.sql, name: own.name) == ExpectedSchema.normalised(object.sql, name: object.name))
            if matches { return nil }
            guard version < ExpectedSchema.itemLayoutSince, !alwaysCompared(object) else { return altered }
        } else if version >= ExpectedSchema.itemLayoutSince {
            return planted
        }
        return olderLayoutAllows(object) ? nil : (expected[object.name] == nil ? planted : altered)
    }

    /// Objects whose definition is the same in every schema, and so compared in full even in
    /// an older file.
    private static func alwaysCompared(_ object: SchemaObject) -> Bool {
        ["settings", "keybag"].contains(object.table)
            || ItemClass.allCases.contains { ItemTable($0).referencesName == object.table }
    }

    /// Whether a file older than the current item layout may hold `object` (by name: the
    /// upgrade rebuilds it).
    private static func olderLayoutAllows(_ object: SchemaObject) -> Bool {
        let itemTables = Set(ItemClass.allCases.map { ItemTable($0).name })
        switch object.type {
        case "table":
            return itemTables.contains(object.name) && object.name == object.table
                && (object.sql ?? "").hasPrefix("CREATE TABLE ")
        case "index":
            if object.sql == nil {
                // The index SQLite makes for a UNIQUE or PRIMARY KEY constraint of one of ours.
                return object.name.hasPrefix("sqlite_autoindex_\(object.table)_") && itemTables.contains(object.table)
            }
            return ExpectedSchema.olderIndexes[object.name] == object.table
        default:
            return false
        }
    }

    /// A name from the file, quoted and cut short, with anything unprintable escaped: it is
    /// someone else's text going into an error message.
    private static func displayed(_ name: String, quoted: Bool = true) -> String {
        let printable = name.unicodeScalars.prefix(64).map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
            + (name.unicodeScalars.count > 64 ? "…" : "")
        return quoted ? "'" + printable + "'" : printable
    }
}
