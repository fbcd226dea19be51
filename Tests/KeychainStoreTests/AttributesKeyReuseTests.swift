import Crypto
import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// An update in place keeps the attributes' item key and its wrapping when the item keeps its
/// class (one AES-GCM seal fewer per update), with a fresh nonce for every seal, and draws a
/// fresh key for anything else. (A password change seals the attributes under fresh keys:
/// KeyHierarchyAttackTests.attributesUpdatedAfterTheChange.)
@Suite struct AttributesKeyReuseTests {
    let query = ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("a"), "svce": .string("s")])

    /// The sealed attributes of the one generic password in the keychain at `path`.
    func sealedAttributes(_ path: String) throws -> Data {
        let db = try SQLiteConnection(path: path)
        defer { try? db.close() }
        let statement = try db.statement("SELECT meta FROM genp")
        #expect(try statement.step())
        return try #require(statement.blob(0))
    }

    /// The wrapped key (after the format byte) and the content nonce of a sealed part.
    func pieces(_ sealed: Data) -> (wrapped: Data, nonce: Data) {
        let bytes = [UInt8](sealed)
        return (Data(bytes[1..<1 + ItemSealer.wrappedKeyLength]),
                Data(bytes[1 + ItemSealer.wrappedKeyLength..<1 + ItemSealer.wrappedKeyLength + 12]))
    }

    /// A keychain holding one class-A generic password whose secret is "one".
    func keychainWithOneItem() throws -> TestKeychain {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: ["acct": .string("a"), "svce": .string("s"), "pdmn": .string("ak")],
                                  secret: Data("one".utf8), identity: .unconfigured)
        return keychain
    }

    func read(_ file: KeychainFile) throws -> (secret: String, label: String?) {
        let item = try #require(try file.find(query, identity: .unconfigured, limit: 1, includeSecrets: true).first)
        return (String(decoding: item.secret ?? Data(), as: UTF8.self), item.attributes["labl"]?.stringValue)
    }

    @Test("A new secret and a new label keep the attributes' wrapped key, with new content and nonce, and read back")
    func sameClassKeepsTheWrapping() throws {
        let keychain = try keychainWithOneItem()
        let path = keychain.file.url.path
        let before = try sealedAttributes(path)

        try keychain.file.update(query, changes: [:], secret: Data("two".utf8), identity: .unconfigured)
        let afterSecret = try sealedAttributes(path)
        #expect(pieces(afterSecret).wrapped == pieces(before).wrapped)
        #expect(pieces(afterSecret).nonce != pieces(before).nonce)
        #expect(afterSecret != before)
        #expect(try read(keychain.file).secret == "two")

        try keychain.file.update(query, changes: ["labl": .string("label")], secret: nil, identity: .unconfigured)
        let afterLabel = try sealedAttributes(path)
        #expect(pieces(afterLabel).wrapped == pieces(before).wrapped)
        // Every seal under the kept key has a nonce of its own.
        var nonces: Set<Data> = [pieces(before).nonce, pieces(afterSecret).nonce, pieces(afterLabel).nonce]
        for round in 0..<5 {
            try keychain.file.update(query, changes: [:], secret: Data("two".utf8), identity: .unconfigured)
            nonces.insert(pieces(try sealedAttributes(path)).nonce)
            #expect(nonces.count == 4 + round)
        }
        #expect(try read(keychain.file) == ("two", "label"))

        // And from a fresh process's view: the file alone opens it.
        let reopened = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        #expect(try read(reopened) == ("two", "label"))
    }

    @Test("A change of class wraps a fresh key under the new class, and the item still reads")
    func newClassNewKey() throws {
        let keychain = try keychainWithOneItem()
        let path = keychain.file.url.path
        let before = try sealedAttributes(path)
        try keychain.file.update(query, changes: ["pdmn": .string("ck")], secret: nil, identity: .unconfigured)
        let after = try sealedAttributes(path)
        #expect(pieces(after).wrapped != pieces(before).wrapped)
        #expect(try read(keychain.file).secret == "one")
    }

    @Test("An update that makes the item a tombstone seals it under a fresh key, as a delete does")
    func tombstoneNewKey() throws {
        let keychain = try keychainWithOneItem()
        let path = keychain.file.url.path
        let before = try sealedAttributes(path)
        try keychain.file.update(query, changes: ["tomb": .integer(1)], secret: nil, identity: .unconfigured)
        #expect(pieces(try sealedAttributes(path)).wrapped != pieces(before).wrapped)
    }

    @Test("A kept key is only reused for the part, row and class it was opened for")
    func keyIsBoundToItsPlace() throws {
        let classKey = SymmetricKey(size: .bits256)
        let rowA = Data("row-a".utf8), rowB = Data("row-b".utf8)
        let sealedA = try ItemSealer.seal(Data("attributes".utf8), part: .attributes, table: "genp", persistentRef: rowA,
                                          protection: .whenUnlocked, classKey: classKey)
        let (_, keyA) = try ItemSealer.openKeepingKey(sealedA, part: .attributes, table: "genp", persistentRef: rowA,
                                                      protection: .whenUnlocked, classKey: classKey)

        // Same place: the wrapping is kept and the new content opens.
        let again = try ItemSealer.seal(Data("changed".utf8), part: .attributes, table: "genp", persistentRef: rowA,
                                        protection: .whenUnlocked, classKey: classKey, reusing: keyA)
        #expect(pieces(again).wrapped == pieces(sealedA).wrapped)
        let yetAgain = try ItemSealer.seal(Data("changed".utf8), part: .attributes, table: "genp", persistentRef: rowA,
                                           protection: .whenUnlocked, classKey: classKey, reusing: keyA)
        #expect(Set([pieces(sealedA).nonce, pieces(again).nonce, pieces(yetAgain).nonce]).count == 3)
        #expect(try ItemSealer.open(again, part: .attributes, table: "genp", persistentRef: rowA,
                                    protection: .whenUnlocked, classKey: classKey) == Data("changed".utf8))

        // Any other place: a fresh key, wrapped for that place, so the blob opens there.
        let places: [(ItemSealer.Part, String, Data, ProtectionClass)] = [
            (.attributes, "genp", rowB, .whenUnlocked),
            (.secret, "genp", rowA, .whenUnlocked),
            (.attributes, "inet", rowA, .whenUnlocked),
            (.attributes, "genp", rowA, .afterFirstUnlock),
        ]
        for (part, table, row, protection) in places {
            let sealed = try ItemSealer.seal(Data("x".utf8), part: part, table: table, persistentRef: row,
                                             protection: protection, classKey: classKey, reusing: keyA)
            #expect(pieces(sealed).wrapped != pieces(sealedA).wrapped, "\(part) \(table) \(protection)")
            #expect(try ItemSealer.open(sealed, part: part, table: table, persistentRef: row,
                                        protection: protection, classKey: classKey) == Data("x".utf8))
        }
    }
}
