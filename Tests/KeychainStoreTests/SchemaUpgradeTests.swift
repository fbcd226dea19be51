import Crypto
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Schemas 2 and 3 changed only indexes and the `pk` column, which is derived from other
/// columns; schema 4 dropped the index on `persistref`; an older keychain is upgraded in place
/// when opened, its sealed items untouched: an upgrade changes tables and indexes, never items.
@Suite struct SchemaUpgradeTests {
    /// Turns a new keychain's genp table into schema 3's: `persistref` UNIQUE, no `genp_refs`,
    /// and every row renumbered, so that no reference names its row, as in a keychain made
    /// before schema 4 (whose references were random).
    static func schema3(_ db: SQLiteConnection, deviceKey: DeviceKey) throws {
        try legacyKeybag(db, deviceKey: deviceKey)
        let statement = try db.statement("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'genp'")
        _ = try statement.step()
        let create = try #require(statement.text(0))
        statement.reset()
        #expect(create.contains("persistref BLOB NOT NULL,"))
        let old = create.replacingOccurrences(of: "CREATE TABLE genp", with: "CREATE TABLE genp3")
            .replacingOccurrences(of: "persistref BLOB NOT NULL,", with: "persistref BLOB NOT NULL UNIQUE,")
        try db.execute("""
            \(old);
            INSERT INTO genp3 SELECT * FROM genp; UPDATE genp3 SET rowid = rowid + 100;
            DROP TABLE genp; DROP TABLE genp_refs; ALTER TABLE genp3 RENAME TO genp;
            \(ItemTable(.genericPassword).indexSQL.joined(separator: "\n"))
            PRAGMA user_version = 3;
            """)
    }

    /// Puts the keybag back the way schemas 1 to 4 kept it: one `keybag` row per class (and one
    /// for the presence key's private half), the index key, password parameters, idle timeout and
    /// presence public key as separate `settings` rows. The wrappings are the record's own.
    static func legacyKeybag(_ db: SQLiteConnection, deviceKey: DeviceKey) throws {
        let id = try #require(try KeychainFile.setting(KeychainFile.keychainIDSetting, db))
        let record = try KeybagRecord.open(try #require(try KeychainFile.setting(KeybagRecord.settingName, db)),
                                           deviceKey: deviceKey, keychainID: id)
        db.resetAll()
        try db.execute("CREATE TABLE keybag (class INTEGER PRIMARY KEY, wrapping INTEGER NOT NULL, wrapped BLOB NOT NULL)")
        let insertClass = try db.statement("INSERT INTO keybag (class, wrapping, wrapped) VALUES (?, ?, ?)")
        for (protection, entry) in record.classes {
            try insertClass.run([.integer(Int64(protection.rawValue)), .integer(entry.wrapping.rawValue), .blob(entry.wrapped)])
        }
        let insertSetting = try db.statement("INSERT INTO settings (name, value) VALUES (?, ?)")
        try insertSetting.run([.text(LegacyKeybag.indexKeySetting), .blob(record.wrappedIndexKey)])
        if let parameters = record.passwordParameters {
            try insertSetting.run([.text(LegacyKeybag.passwordParametersSetting), .blob(parameters)])
        }
        if let timeout = record.lockTimeout {
            try insertSetting.run([.text(LegacyKeybag.lockTimeoutSetting), .blob(withUnsafeBytes(of: timeout.littleEndian) { Data($0) })])
        }
        if let presence = record.presence {
            try insertClass.run([.integer(LegacyKeybag.presenceRow), .integer(Keybag.Wrapping.passwordKey.rawValue),
                                 .blob(presence.wrappedPrivate)])
            let wrappedPublic = try Keybag.wrap(SymmetricKey(data: presence.publicKey), with: deviceKey.key,
                                                label: LegacyKeybag.presencePublicSetting, keychainID: id)
            try insertSetting.run([.text(LegacyKeybag.presencePublicSetting), .blob(wrappedPublic)])
        }
        try db.statement("DELETE FROM settings WHERE name = ?").run([.text(KeybagRecord.settingName)])
        db.resetAll()
    }

    /// The genp indexes schema 1 had (one per primary-key attribute and the label, the access
    /// group, and the service/account pair), and its `pk` (the primary key's blind index alone).
    static let schema1Indexes = """
        DROP INDEX IF EXISTS genp_svce_acct; DROP INDEX IF EXISTS genp_acct; DROP INDEX IF EXISTS genp_labl;
        DROP INDEX IF EXISTS genp_vwht; DROP INDEX IF EXISTS genp_tkid; DROP INDEX IF EXISTS genp_ggrp;
        CREATE INDEX genp_agrp ON genp(agrp); CREATE INDEX genp_acct ON genp(i_acct); CREATE INDEX genp_svce ON genp(i_svce);
        CREATE INDEX genp_vwht ON genp(i_vwht); CREATE INDEX genp_tkid ON genp(i_tkid); CREATE INDEX genp_ggrp ON genp(i_ggrp);
        CREATE INDEX genp_labl ON genp(i_labl); CREATE INDEX genp_svce_acct ON genp(i_svce, i_acct);
        UPDATE genp SET pk = substr(pk, 33);
        PRAGMA user_version = 1;
        """

    func indexes(_ db: SQLiteConnection) throws -> [String: String] {
        let statement = try db.statement("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'genp' AND sql IS NOT NULL")
        var found: [String: String] = [:]
        while try statement.step() { found[statement.text(0) ?? ""] = statement.text(1) ?? "" }
        statement.reset()
        return found
    }

    /// Schema 2's genp indexes, and its `pk` (the primary key's blind index alone: schema 3
    /// put the pair's 32 bytes in front).
    static let schema2 = """
        DROP INDEX IF EXISTS genp_acct; DROP INDEX IF EXISTS genp_labl;
        CREATE INDEX genp_svce_acct ON genp(i_svce, i_acct); CREATE INDEX genp_acct ON genp(i_acct);
        CREATE INDEX genp_labl ON genp(i_labl) WHERE i_labl IS NOT NULL;
        UPDATE genp SET pk = substr(pk, 33);
        PRAGMA user_version = 2;
        """

    func plan(_ db: SQLiteConnection, _ sql: String) throws -> String {
        let statement = try db.statement("EXPLAIN QUERY PLAN " + sql)
        var plan = ""
        while try statement.step() { plan += (statement.text(3) ?? "") + "\n" }
        statement.reset()
        return plan
    }

    func find(_ file: KeychainFile, _ filters: [String: AttributeValue]) throws -> [String] {
        try file.find(ItemQuery(itemClass: .genericPassword, filters: filters), identity: .unconfigured, limit: nil, includeSecrets: true)
            .map { String(decoding: $0.secret ?? Data(), as: UTF8.self) }
    }

    /// Three items, a keychain of an older schema made from them, and checks that after the
    /// upgrade every way of finding them works and the primary key still refuses duplicates
    /// (which only holds if the upgraded `pk` is exactly what new adds compute).
    func checkUpgrade(from older: String, dropped: [String]) throws {
        let keychain = try TestKeychain()
        var references: [String: Data] = [:]
        for (account, service) in [("a", "s"), ("b", "s"), ("a", "t")] {
            let item = try keychain.file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string(service)],
                                             secret: Data("\(account)@\(service)".utf8), identity: .unconfigured)
            references["\(account)@\(service)"] = item.persistentReference
        }
        let path = keychain.file.url.path
        do {
            let db = try SQLiteConnection(path: path)
            try Self.schema3(db, deviceKey: keychain.deviceKey)
            try db.execute(older)
            try db.close()
        }
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        // References from before the upgrade still find their items (through genp_refs).
        for (secret, reference) in references {
            let found = try reopened.find(ItemQuery(itemClass: .genericPassword, persistentReference: reference),
                                          identity: .unconfigured, limit: nil, includeSecrets: true)
            #expect(found.map { String(decoding: $0.secret ?? Data(), as: UTF8.self) } == [secret])
        }
        #expect(try find(reopened, ["acct": .string("a"), "svce": .string("s")]) == ["a@s"])
        #expect(try find(reopened, ["svce": .string("s")]) == ["a@s", "b@s"])
        #expect(try find(reopened, ["acct": .string("a")]) == ["a@s", "a@t"])
        #expect(throws: KeychainStoreError.duplicateItem) {
            try reopened.add(.genericPassword, attributes: ["acct": .string("b"), "svce": .string("s")],
                             secret: Data("again".utf8), identity: .unconfigured)
        }
        let added = try reopened.add(.genericPassword, attributes: ["acct": .string("c"), "svce": .string("s")],
                                     secret: Data("c@s".utf8), identity: .unconfigured)
        #expect(try find(reopened, ["svce": .string("s")]) == ["a@s", "b@s", "c@s"])
        #expect(try reopened.find(ItemQuery(itemClass: .genericPassword, persistentReference: added.persistentReference),
                                  identity: .unconfigured, limit: nil, includeSecrets: false).count == 1)

        let db = try SQLiteConnection(path: path)
        let statement = try db.statement("PRAGMA user_version")
        _ = try statement.step()
        #expect(statement.int64(0) == KeychainFile.schemaVersion)
        statement.reset()
        let constraints = try db.statement("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'genp' AND sql IS NULL")
        _ = try constraints.step()
        #expect(constraints.int64(0) == 1, "only pk's UNIQUE index is left; persistref's is gone")
        constraints.reset()
        let upgraded = try indexes(db)
        for name in dropped { #expect(upgraded[name] == nil, "\(name) should be gone") }
        #expect(upgraded["genp_vwht"]?.contains("IS NOT NULL") == true)
        #expect(upgraded["genp_labl"]?.contains("IS NOT NULL") == true)
        #expect(upgraded["genp_acct"]?.contains("IS NOT NULL") == false)
        #expect(try reopened.integrityCheck())
    }

    @Test("Opening a schema-1 keychain upgrades it in place: every item found by pair, service or account, duplicates still refused")
    func upgradesFromSchema1() throws {
        try checkUpgrade(from: Self.schema1Indexes, dropped: ["genp_agrp", "genp_svce", "genp_svce_acct"])
    }

    @Test("Opening a schema-2 keychain upgrades it in place: every item found by pair, service or account, duplicates still refused")
    func upgradesFromSchema2() throws {
        try checkUpgrade(from: Self.schema2, dropped: ["genp_svce_acct"])
    }

    @Test("Opening a schema-3 keychain upgrades it in place: persistref loses its index, every reference still finds its item")
    func upgradesFromSchema3() throws {
        try checkUpgrade(from: "", dropped: [])
    }

    @Test("A new keychain has exactly the indexes an upgraded one has")
    func newMatchesUpgraded() throws {
        let keychain = try TestKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let fresh = try indexes(db)
        #expect(Set(fresh.keys) == ["genp_acct", "genp_vwht", "genp_tkid", "genp_ggrp", "genp_labl"])
    }

    @Test("A lookup by service, or by service and account, is a range of the primary-key index, not a scan")
    func pairUsesPrimaryKeyIndex() throws {
        let keychain = try TestKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let byService = try plan(db, "SELECT rowid FROM genp WHERE i_svce = ? AND pk >= ? AND pk < ? ORDER BY rowid")
        #expect(byService.contains("sqlite_autoindex_genp"), "\(byService)")
        #expect(byService.contains("pk>? AND pk<?"), "\(byService)")
        let byPair = try plan(db, "SELECT rowid FROM genp WHERE i_acct = ? AND i_svce = ? AND pk >= ? AND pk < ? ORDER BY rowid")
        #expect(!byPair.contains("SCAN genp"), "\(byPair)")
    }

    @Test("The range of a prefix ends at the next prefix, and has no end after a prefix of 0xff bytes")
    func primaryKeyRange() {
        let range = KeychainFile.State.primaryKeyRange(Data([0x01, 0xff]), Data([0x02, 0xff]))
        #expect(range.lower == Data([0x01, 0xff, 0x02, 0xff]))
        #expect(range.upper == Data([0x01, 0xff, 0x03]))
        #expect(KeychainFile.State.primaryKeyRange(Data([0xff, 0xff]), nil).upper == nil)
    }

    @Test("A lookup by one attribute that has only a partial index still uses that index")
    func partialIndexIsUsed() throws {
        let keychain = try TestKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let found = try plan(db, "SELECT rowid FROM genp WHERE i_labl = ?")
        #expect(found.contains("genp_labl"), "\(found)")
    }

    @Test("A write after a newer version upgraded the keychain underneath is errSecWrongSecVersion and writes nothing")
    func writeAfterNewerUpgradeIsRefused() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")],
                                  secret: Data("kept".utf8), identity: .unconfigured)
        let db = try SQLiteConnection(path: keychain.file.url.path)
        try db.execute("PRAGMA user_version = \(KeychainFile.schemaVersion + 1)")
        let query = ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a")])
        let refusals: [() throws -> Void] = [
            { _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("b"), "svce": .string("s")],
                                        secret: Data("new".utf8), identity: .unconfigured) },
            { _ = try keychain.file.update(query, changes: [:], secret: Data("changed".utf8), identity: .unconfigured) },
            { _ = try keychain.file.delete(query, identity: .unconfigured) },
        ]
        for write in refusals {
            #expect(throws: KeychainStoreError.self) { try write() }
            do { try write() } catch let error as KeychainStoreError { #expect(error.status == SecStatus.wrongSecVersion) }
        }
        try db.execute("PRAGMA user_version = \(KeychainFile.schemaVersion)")
        #expect(try find(keychain.file, [:]) == ["kept"])
    }
}
