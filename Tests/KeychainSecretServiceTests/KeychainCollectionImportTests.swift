import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
@testable import KeychainSecretService

/// `KeychainCollection.importItems`: keyring items stored as keychaind stores them, merged by the
/// backup rule in one transaction.
@Suite struct KeychainCollectionImportTests {
    static func item(_ secret: String, modified: TimeInterval, label: String = "L",
                     attributes: [String: String] = ["service": "svc", "username": "ann"]) -> GnomeKeyringItem {
        GnomeKeyringItem(label: label, attributes: attributes, secret: Data(secret.utf8), contentType: "text/plain",
                         created: Date(timeIntervalSince1970: 1_700_000_000), modified: Date(timeIntervalSince1970: modified))
    }

    @Test func laterModificationWinsAndDatesAreKept() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        var counts = try collection.importItems([Self.item("one", modified: 1_700_000_100)])
        #expect((counts.added, counts.replaced, counts.kept) == (1, 0, 0))
        let first = try #require(try collection.search(["service": "svc"]).first)
        #expect(first.created == 1_700_000_000 && first.modified == 1_700_000_100)
        #expect(first.attributes == ["service": "svc", "username": "ann"])

        // Older and equal: left out. Newer: replaces, keeping the item's identity.
        counts = try collection.importItems([Self.item("older", modified: 1_700_000_050)])
        #expect((counts.added, counts.replaced, counts.kept) == (0, 0, 1))
        counts = try collection.importItems([Self.item("one", modified: 1_700_000_100)])
        #expect((counts.added, counts.replaced, counts.kept) == (0, 0, 1))
        counts = try collection.importItems([Self.item("newer", modified: 1_700_000_200, label: "M")])
        #expect((counts.added, counts.replaced, counts.kept) == (0, 1, 0))
        let replaced = try collection.search(["service": "svc"])
        #expect(replaced.map(\.id) == [first.id])
        #expect(replaced.first?.label == "M")
        #expect(try collection.secret(id: first.id).bytes == Data("newer".utf8))
    }

    /// A keyring may hold two items of equal attribute sets (a Secret Service keeps them apart):
    /// both are imported, each with its own secret, and importing the file again adds nothing.
    @Test func itemsOfOneKeyInOneFileStayApart() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let file = [Self.item("new", modified: 1_700_000_300), Self.item("old", modified: 1_700_000_100),
                    Self.item("x", modified: 1, attributes: ["app": "foo"])]
        var counts = try collection.importItems(file)
        #expect((counts.added, counts.replaced, counts.kept) == (3, 0, 0))
        let found = try collection.search(["service": "svc", "username": "ann"])
        #expect(Set(try found.map { try collection.secret(id: $0.id).bytes }) == [Data("new".utf8), Data("old".utf8)])
        #expect(try collection.search(["app": "foo"]).count == 1)
        counts = try collection.importItems(file)
        #expect((counts.added, counts.replaced, counts.kept) == (0, 0, 3))
        #expect(try collection.allItems().count == 3)
    }

    @Test func aLockedKeychainTakesNothing() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("kc", currentPassword: nil)
        keychain.file.lock()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        #expect(throws: KeychainStoreError.self) { try collection.importItems([Self.item("a", modified: 1)]) }
        try keychain.file.unlock(password: "kc")
        #expect(try collection.search([:]).isEmpty)
    }
}
