import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Schema 2 changed only indexes; a schema-1 keychain is upgraded in place when opened, its
/// items untouched (issue 2 §1: no migration of items).
@Suite struct SchemaUpgradeTests {
    /// The genp indexes schema 1 had: one per primary-key attribute and the label, the access
    /// group, and the service/account pair.
    static let schema1Indexes = """
        DROP INDEX IF EXISTS genp_svce_acct; DROP INDEX IF EXISTS genp_acct; DROP INDEX IF EXISTS genp_labl;
        DROP INDEX IF EXISTS genp_vwht; DROP INDEX IF EXISTS genp_tkid; DROP INDEX IF EXISTS genp_ggrp;
        CREATE INDEX genp_agrp ON genp(agrp); CREATE INDEX genp_acct ON genp(i_acct); CREATE INDEX genp_svce ON genp(i_svce);
        CREATE INDEX genp_vwht ON genp(i_vwht); CREATE INDEX genp_tkid ON genp(i_tkid); CREATE INDEX genp_ggrp ON genp(i_ggrp);
        CREATE INDEX genp_labl ON genp(i_labl); CREATE INDEX genp_svce_acct ON genp(i_svce, i_acct);
        PRAGMA user_version = 1;
        """

    func indexes(_ db: SQLiteConnection) throws -> [String: String] {
        let statement = try db.statement("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'genp' AND sql IS NOT NULL")
        var found: [String: String] = [:]
        while try statement.step() { found[statement.text(0) ?? ""] = statement.text(1) ?? "" }
        statement.reset()
        return found
    }

    @Test("Opening a schema-1 keychain upgrades its indexes and keeps every item")
    func upgradesInPlace() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a"), "svce": .string("s")],
                                  secret: Data("kept".utf8), identity: .unconfigured)
        let path = keychain.file.url.path
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute(Self.schema1Indexes)
            try db.close()
        }
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        let found = try reopened.find(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a"), "svce": .string("s")]),
                                      identity: .unconfigured, limit: 1, includeSecrets: true)
        #expect(found.first?.secret == Data("kept".utf8))

        let db = try SQLiteConnection(path: path)
        let statement = try db.statement("PRAGMA user_version")
        _ = try statement.step()
        #expect(statement.int64(0) == KeychainFile.schemaVersion)
        statement.reset()
        let upgraded = try indexes(db)
        #expect(upgraded["genp_agrp"] == nil)
        #expect(upgraded["genp_svce"] == nil)
        #expect(upgraded["genp_svce_acct"] != nil)
        #expect(upgraded["genp_vwht"]?.contains("IS NOT NULL") == true)
        #expect(upgraded["genp_labl"]?.contains("IS NOT NULL") == true)
        #expect(upgraded["genp_acct"]?.contains("IS NOT NULL") == false)
        #expect(try reopened.integrityCheck())
    }

    @Test("A new keychain has exactly the indexes an upgraded one has")
    func newMatchesUpgraded() throws {
        let keychain = try TestKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let fresh = try indexes(db)
        #expect(Set(fresh.keys) == ["genp_svce_acct", "genp_acct", "genp_vwht", "genp_tkid", "genp_ggrp", "genp_labl"])
    }

    @Test("A lookup by one attribute that has only a partial index still uses that index")
    func partialIndexIsUsed() throws {
        let keychain = try TestKeychain()
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let statement = try db.statement("EXPLAIN QUERY PLAN SELECT rowid FROM genp WHERE i_labl = ?")
        var plan = ""
        while try statement.step() { plan += (statement.text(3) ?? "") + "\n" }
        statement.reset()
        #expect(plan.contains("genp_labl"), "\(plan)")
    }
}
