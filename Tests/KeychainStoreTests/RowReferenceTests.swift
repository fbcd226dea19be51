import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// Persistent references name their row (schema 4), so the table needs no index on them; a
/// reference must still never find anything but its own item.
@Suite struct RowReferenceTests {
    func add(_ file: KeychainFile, _ account: String) throws -> StoredItem {
        try file.add(.genericPassword, attributes: ["acct": .string(account), "svce": .string("s")],
                     secret: Data("secret-\(account)".utf8), identity: .unconfigured)
    }

    func find(_ file: KeychainFile, _ reference: Data) throws -> [String] {
        try file.find(ItemQuery(itemClass: .genericPassword, persistentReference: reference),
                      identity: .unconfigured, limit: nil, includeSecrets: true)
            .map { String(decoding: $0.secret ?? Data(), as: UTF8.self) }
    }

    /// The number of entries in genp's table of references that do not name their row.
    func referenceEntries(_ file: KeychainFile) throws -> Int64 {
        let db = try SQLiteConnection(path: file.url.path)
        let statement = try db.statement("SELECT count(*) FROM genp_refs")
        _ = try statement.step()
        defer { statement.reset() }
        return statement.int64(0)
    }

    /// A backup of `keychain`'s exportable items, written next to it.
    func backup(_ keychain: TestKeychain) throws -> URL {
        let url = keychain.directory.appendingPathComponent("keychain.backup")
        _ = try keychain.file.exportBackup(to: url, password: "backup-password")
        return url
    }

    func rowids(_ keychain: TestKeychain) throws -> [Int64] {
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let statement = try db.statement("SELECT rowid FROM genp ORDER BY rowid")
        var found: [Int64] = []
        while try statement.step() { found.append(statement.int64(0)) }
        statement.reset()
        return found
    }

    @Test("A reference is its row number and 8 random bytes, and differs for every item")
    func referenceNamesItsRow() throws {
        let keychain = try TestKeychain()
        let items = try (0..<20).map { try add(keychain.file, "user-\($0)") }
        #expect(Set(items.map(\.persistentReference)).count == 20)
        #expect(Set(items.map { $0.persistentReference.suffix(8) }).count == 20)
        #expect(try rowids(keychain) == Array(1...20))
        for (offset, item) in items.enumerated() {
            #expect(item.persistentReference.count == 16)
            #expect(item.persistentReference.prefix(8) == Data([0, 0, 0, 0, 0, 0, 0, UInt8(offset + 1)]))
            #expect(try find(keychain.file, item.persistentReference) == ["secret-user-\(offset)"])
        }
    }

    @Test("The reference of a deleted item does not find the item added after it under the same row number")
    func deletedReferenceStaysDead() throws {
        let keychain = try TestKeychain()
        _ = try add(keychain.file, "first")
        let doomed = try add(keychain.file, "doomed")
        _ = try keychain.file.delete(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("doomed")]), identity: .unconfigured)
        let successor = try add(keychain.file, "successor")
        #expect(try rowids(keychain) == [1, 2], "the freed row number is used again")
        #expect(successor.persistentReference != doomed.persistentReference)
        #expect(try find(keychain.file, doomed.persistentReference).isEmpty)
        #expect(try find(keychain.file, successor.persistentReference) == ["secret-successor"])
    }

    @Test("A reference that is not ours (guessed, short, or another keychain's for the same row) finds nothing")
    func foreignReferenceFindsNothing() throws {
        let keychain = try TestKeychain()
        let other = try TestKeychain()
        let mine = try add(keychain.file, "mine")
        let theirs = try add(other.file, "theirs")
        #expect(theirs.persistentReference.prefix(8) == mine.persistentReference.prefix(8), "both are row 1")
        #expect(try find(keychain.file, theirs.persistentReference).isEmpty)
        #expect(try find(keychain.file, mine.persistentReference.prefix(8) + Data(count: 8)).isEmpty)
        #expect(try find(keychain.file, Data(repeating: 0, count: 16)).isEmpty)
        #expect(try find(keychain.file, Data([1, 2, 3])).isEmpty)
    }

    @Test("A restored item keeps its reference through a _refs entry, which its deletion removes")
    func restoredReference() throws {
        let source = try TestKeychain()
        let original = try add(source.file, "travelling")
        let target = try TestKeychain()
        _ = try add(target.file, "local")
        #expect(try target.file.importBackup(from: try backup(source), password: "backup-password") == 1)
        #expect(try find(target.file, original.persistentReference) == ["secret-travelling"])
        #expect(try referenceEntries(target.file) == 1)
        _ = try target.file.delete(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("travelling")]), identity: .unconfigured)
        #expect(try referenceEntries(target.file) == 0)
        #expect(try find(target.file, original.persistentReference).isEmpty)
    }

    @Test("Restoring into the keychain that already has an item's reference gives the restored copy a new one")
    func restoredReferenceInUse() throws {
        let keychain = try TestKeychain()
        let original = try add(keychain.file, "renamed")
        let backup = try backup(keychain)
        // The item moves to another primary key, so the backup's copy is a new item here.
        _ = try keychain.file.update(ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("renamed")]),
                                     changes: ["acct": .string("moved")], secret: nil, identity: .unconfigured)
        #expect(try keychain.file.importBackup(from: backup, password: "backup-password") == 1)
        #expect(try find(keychain.file, original.persistentReference) == ["secret-renamed"])
        let all = try keychain.file.find(ItemQuery(itemClass: .genericPassword), identity: .unconfigured, limit: nil, includeSecrets: false)
        #expect(all.count == 2)
        #expect(Set(all.map(\.persistentReference)).count == 2)
    }

    @Test("Removing the password deletes passcode-only items together with their _refs entries; the others keep theirs")
    func bulkDeletePrunesReferences() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        let kept = try keychain.file.add(.genericPassword, attributes: ["acct": .string("kept"), "svce": .string("s")],
                                         secret: Data("secret-kept".utf8), identity: .unconfigured)
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("passcode"), "svce": .string("s"), "pdmn": .string("akpu")],
                                  secret: Data("secret-passcode".utf8), identity: .unconfigured)
        // An older keychain's rows, whose references do not name them, each with a _refs entry.
        do {
            let db = try SQLiteConnection(path: keychain.file.url.path)
            try SchemaUpgradeTests.schema3(db, deviceKey: keychain.deviceKey)
            try db.close()
        }
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        #expect(try referenceEntries(reopened) == 2)
        try reopened.setPassword(nil, currentPassword: "pw")
        #expect(try referenceEntries(reopened) == 1)
        #expect(try find(reopened, kept.persistentReference) == ["secret-kept"])
    }

    @Test("A lookup by reference reads rows by number, never scanning the table")
    func lookupByReferenceIsNotAScan() throws {
        let keychain = try TestKeychain()
        let item = try add(keychain.file, "a")
        let db = try SQLiteConnection(path: keychain.file.url.path)
        let statement = try db.statement("EXPLAIN QUERY PLAN SELECT rowid FROM genp WHERE rowid IN (?, (SELECT rowid FROM genp_refs WHERE persistref = ?)) AND persistref = ?")
        var plan = ""
        while try statement.step() { plan += (statement.text(3) ?? "") + "\n" }
        statement.reset()
        #expect(plan.contains("USING INTEGER PRIMARY KEY"), "\(plan)")
        #expect(!plan.contains("SCAN"), "\(plan)")
        #expect(try find(keychain.file, item.persistentReference) == ["secret-a"])
    }
}
