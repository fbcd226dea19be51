import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Someone who can write a keychain file but holds no key plants SQL in its schema (a trigger, a
/// view, a table, an index, a changed table definition). SQLite would run it inside the engine's
/// own statements. Each planted object must make the open fail with `errSecInvalidKeychain`,
/// naming the object, and leave every file in the folder byte for byte as it was.
@Suite("Schema audit: SQL planted in the file is refused, never run")
struct SchemaAuditTests {
    typealias Folder = HostileFileTests.Folder

    /// Runs `sql` on the closed keychain with a plain connection (no defensive settings: what
    /// the attacker's own tools would use), then closes it so the file holds everything.
    static func plant(_ sql: String, in keychain: URL) throws {
        let db = try SQLiteConnection(path: keychain.path)
        try db.execute(sql)
        try db.close()
    }

    struct Plant: CustomTestStringConvertible, Sendable {
        let what: String
        let sql: String
        /// Words the refusal must contain: the kind of object and its name.
        let named: String
        var testDescription: String { what }
    }

    static let plants: [Plant] = [
        Plant(what: "a trigger that undoes every change to settings (a password would never take effect)",
              sql: "CREATE TRIGGER keep_wrapping AFTER UPDATE ON settings BEGIN UPDATE settings SET value = old.value WHERE name = old.name; END",
              named: "trigger 'keep_wrapping'"),
        Plant(what: "a trigger that copies every new item's sealed secret aside",
              sql: "CREATE TRIGGER stash AFTER INSERT ON genp BEGIN UPDATE settings SET value = new.secret WHERE name = 'keychain-id'; END",
              named: "trigger 'stash'"),
        Plant(what: "a view", sql: "CREATE VIEW everything AS SELECT * FROM genp", named: "view 'everything'"),
        Plant(what: "an extra table", sql: "CREATE TABLE loot (data BLOB)", named: "table 'loot'"),
        Plant(what: "an extra index on an expression", sql: "CREATE INDEX genp_leak ON genp(substr(secret, 1, 16))",
              named: "index 'genp_leak'"),
        Plant(what: "one of the engine's index names, on an expression",
              sql: "DROP INDEX genp_acct; CREATE INDEX genp_acct ON genp(lower(i_acct))", named: "index 'genp_acct' whose definition"),
        Plant(what: "an item table with a generated column",
              sql: "ALTER TABLE genp ADD COLUMN leak BLOB GENERATED ALWAYS AS (secret) VIRTUAL", named: "table 'genp' whose definition"),
        Plant(what: "settings redefined so that a clashing write is silently dropped",
              sql: """
                  CREATE TABLE settings2 (name TEXT PRIMARY KEY ON CONFLICT IGNORE, value BLOB NOT NULL);
                  INSERT INTO settings2 SELECT * FROM settings; DROP TABLE settings; ALTER TABLE settings2 RENAME TO settings;
                  """,
              named: "table 'settings' whose definition"),
        Plant(what: "a references table with a CHECK constraint",
              sql: """
                  DROP TABLE genp_refs;
                  CREATE TABLE genp_refs (persistref BLOB PRIMARY KEY, rowid INTEGER NOT NULL CHECK (rowid < 0)) WITHOUT ROWID;
                  """,
              named: "table 'genp_refs' whose definition"),
    ]

    @Test("A planted schema object makes open fail with errSecInvalidKeychain and leaves the files unchanged", arguments: plants)
    func plantedObjectIsRefused(plant: Plant) throws {
        let folder = try Folder()
        defer { folder.remove() }
        try Self.plant(plant.sql, in: folder.keychain)
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.invalidKeychain, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.reason.contains(plant.named) == true, "\(error?.reason ?? "")")
        #expect(error?.reason.contains(folder.keychain.path) == true)
        #expect(error?.reason.contains("refusing to open") == true)
    }

    @Test("The same objects planted in a file claiming an older schema are refused too", arguments: [
        "CREATE TRIGGER keep_wrapping AFTER UPDATE ON settings BEGIN SELECT 1; END",
        "CREATE TABLE loot (data BLOB)",
        "CREATE INDEX genp_leak ON genp(substr(secret, 1, 16))",
        "CREATE TABLE genp_schema4 (data BLOB)",
    ])
    func plantedInOlderSchemaIsRefused(sql: String) throws {
        let folder = try Folder()
        defer { folder.remove() }
        do {
            let db = try SQLiteConnection(path: folder.keychain.path)
            try SchemaUpgradeTests.schema3(db, deviceKey: folder.deviceKey)
            try db.close()
        }
        try Self.plant(sql, in: folder.keychain)
        let error = try folder.refusal()
        #expect(error?.status == SecStatus.invalidKeychain, "\(error.map(String.init(describing:)) ?? "")")
        #expect(error?.reason.contains("never creates") == true, "\(error?.reason ?? "")")
    }

    @Test("Claiming an older schema to escape the full comparison gains nothing: the upgrade rebuilds the table without the planted column")
    func olderVersionDoesNotKeepPlantedDefinition() throws {
        let folder = try Folder()
        defer { folder.remove() }
        do {
            // A schema-3 file keeps its keybag as schema 3 did.
            let db = try SQLiteConnection(path: folder.keychain.path)
            try SchemaUpgradeTests.legacyKeybag(db, deviceKey: folder.deviceKey)
            try db.close()
        }
        try Self.plant("""
            ALTER TABLE genp ADD COLUMN leak BLOB GENERATED ALWAYS AS (secret) VIRTUAL;
            DROP INDEX genp_acct; CREATE INDEX genp_acct ON genp(lower(i_acct));
            PRAGMA user_version = 3;
            """, in: folder.keychain)
        let file = try KeychainFile.open(at: folder.keychain, deviceKey: folder.deviceKey, create: false)
        let found = try file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(found.map(\.secret) == [Data("kept secret".utf8)])
        let db = try SQLiteConnection(path: folder.keychain.path)
        let statement = try db.statement("SELECT name, sql FROM sqlite_master WHERE tbl_name = 'genp' AND sql IS NOT NULL")
        while try statement.step() {
            let sql = statement.text(1) ?? ""
            #expect(!sql.contains("leak") && !sql.contains("lower("), "\(statement.text(0) ?? ""): \(sql)")
        }
        statement.reset()
        // And the next open compares it in full, so it opens again.
        _ = try KeychainFile.open(at: folder.keychain, deviceKey: folder.deviceKey, create: false)
    }

    @Test("A new keychain holds exactly the objects the audit expects, each as the engine writes it")
    func newKeychainMatchesExpectation() throws {
        let keychain = try TestKeychain()
        let expected = ExpectedSchema.current
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let statement = try db.statement("SELECT type, name, tbl_name, sql FROM sqlite_master")
        var found: [String: SchemaObject] = [:]
        while try statement.step() {
            let object = SchemaObject(type: statement.text(0) ?? "", name: statement.text(1) ?? "",
                                      table: statement.text(2) ?? "", sql: statement.text(3))
            found[object.name] = object
        }
        statement.reset()
        // `keybag` may be gone in a later schema; everything else is exactly as expected.
        #expect(found == expected.filter { $0.key != "keybag" || found["keybag"] != nil })
    }

    @Test("Normalising leaves the engine's SQL as SQLite records it, and accepts a renamed table's quoted name")
    func normalisation() {
        #expect(ExpectedSchema.normalised("CREATE TABLE IF NOT EXISTS x_refs  (a BLOB)\n;", name: "x_refs") == "CREATE TABLE x_refs (a BLOB)")
        #expect(ExpectedSchema.normalised("CREATE TABLE \"genp\" (a BLOB)", name: "genp") == "CREATE TABLE genp (a BLOB)")
        #expect(ExpectedSchema.normalised("CREATE TABLE \"genp\" (a BLOB)", name: "inet") == "CREATE TABLE \"genp\" (a BLOB)")
        #expect(ExpectedSchema.normalised(nil, name: "sqlite_autoindex_genp_1") == nil)
    }
}
