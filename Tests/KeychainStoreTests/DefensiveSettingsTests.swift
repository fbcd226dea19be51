import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// The engine's connection runs with SQLite's defensive settings, so that SQL someone slips into
/// the file while it is open (after the open-time schema audit) still never runs, and no
/// statement can rewrite the schema.
@Suite("Defensive settings: the engine's connection runs no planted SQL")
struct DefensiveSettingsTests {
    @Test("A trigger planted while the keychain is open never runs in the engine's writes")
    func triggerPlantedWhileOpenDoesNotRun() throws {
        let keychain = try TestKeychain()
        let attacker = try SQLiteConnection(path: keychain.file.url.path)
        try attacker.execute("""
            CREATE TABLE loot (data BLOB);
            CREATE TRIGGER stash AFTER INSERT ON genp BEGIN INSERT INTO loot VALUES (new.secret); END;
            CREATE TRIGGER stash_update AFTER UPDATE ON genp BEGIN INSERT INTO loot VALUES (new.secret); END;
            """)
        let query = ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a")])
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a")], secret: Data("first".utf8), identity: .unconfigured)
        try keychain.file.update(query, changes: [:], secret: Data("second".utf8), identity: .unconfigured)
        let count = try attacker.statement("SELECT count(*) FROM loot")
        _ = try count.step()
        #expect(count.int64(0) == 0, "the planted trigger ran inside the engine's write")
        count.reset()
        // The same trigger does fire for a connection without the defensive settings: the
        // attack is real, and only the engine's settings stop it.
        try attacker.execute("UPDATE genp SET sync = sync")
        _ = try count.step()
        #expect(count.int64(0) == 1)
        count.reset()
    }

    @Test("With defensive mode, PRAGMA writable_schema through the engine's connection cannot rewrite the schema")
    func writableSchemaIsRefused() throws {
        let keychain = try TestKeychain()
        let attack = """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = 'CREATE TABLE settings (name TEXT PRIMARY KEY ON CONFLICT IGNORE, value BLOB NOT NULL)'
            WHERE name = 'settings';
            """
        #expect(throws: KeychainStoreError.self) {
            try keychain.file.withState { state throws(KeychainStoreError) in try state.db.execute(attack) }
        }
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let statement = try db.statement("SELECT sql FROM sqlite_master WHERE name = 'settings'")
        _ = try statement.step()
        #expect(statement.text(0) == "CREATE TABLE settings (name TEXT PRIMARY KEY, value BLOB NOT NULL)")
        statement.reset()
        // Still the keychain it was.
        _ = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
    }
}
