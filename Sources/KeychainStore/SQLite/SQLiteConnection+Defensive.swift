internal import CSQLite

extension SQLiteConnection {
    /// Sets up this connection for a database file someone else may have written.
    ///
    /// The keychain file is not trusted: anyone who can write it, even without a key, can add SQL
    /// to its schema, and SQLite runs a file's schema as part of the engine's own statements. A
    /// trigger planted on `settings` would run inside the engine's writes with the engine's
    /// authority. The engine uses no trigger, view, extension or schema-editing statement, so all
    /// of them are turned off here, before the connection reads anything from the file:
    /// - triggers and views stored in the file never run (SQLite still allows TEMP ones, which
    ///   live only in this connection and which the engine never makes);
    /// - the schema is not trusted: an SQL function in a CHECK constraint, DEFAULT, generated
    ///   column or index expression must be one SQLite marks harmless;
    /// - defensive mode: no `PRAGMA writable_schema`, no `journal_mode = OFF`, no writes to
    ///   `sqlite_dbpage`, so no statement can corrupt the file deliberately;
    /// - no extension loading, whether by C call or by SQL function;
    /// - SQLite checks each cell's size as it reads a page (a damaged or forged page fails
    ///   instead of being read past its end), and reads the file with `read`, not a memory map, so
    ///   a file changed underneath cannot fault the process.
    ///
    /// A setting this SQLite does not know is an error, not a silent downgrade.
    func applyDefensiveSettings() throws(KeychainStoreError) {
        let settings: [(option: Int32, value: Int32, name: String)] = [
            (SQLITE_DBCONFIG_DEFENSIVE, 1, "defensive mode"),
            (SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "trusted schema"),
            (SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "triggers"),
            (SQLITE_DBCONFIG_ENABLE_VIEW, 0, "views"),
            (SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "extension loading"),
        ]
        for setting in settings {
            var applied: Int32 = -1
            let rc = csqlite_db_config_flag(handle, setting.option, setting.value, &applied)
            guard rc == SQLITE_OK, applied == setting.value else {
                throw .notAvailable("this SQLite (\(String(cString: sqlite3_libversion()))) cannot turn \(setting.name) "
                                    + "\(setting.value == 0 ? "off" : "on"), which the keychain needs (result \(rc))")
            }
        }
        try execute("PRAGMA trusted_schema = OFF")
        try execute("PRAGMA cell_size_check = ON")
        try execute("PRAGMA mmap_size = 0")
    }
}
