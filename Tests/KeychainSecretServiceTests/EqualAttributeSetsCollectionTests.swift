import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
@testable import KeychainSecretService

/// A keychain collection holds items of equal attribute sets side by side: the first keeps the
/// plain keychain key, the others a sharing group of their own (``KeychainCollection/create(label:attributes:secret:replace:)``).
@Suite struct EqualAttributeSetsCollectionTests {
    static func secret(_ text: String) -> SecretValue { SecretValue(bytes: Data(text.utf8)) }

    static func genericPasswords(_ keychain: TestKeychain, service: String, account: String) throws -> [StoredItem] {
        try keychain.file.find(ItemQuery(itemClass: .genericPassword,
                                         filters: [AttributeName.service: .string(service), AttributeName.account: .string(account)]),
                               identity: .unconfigured, limit: nil, includeSecrets: true)
    }

    @Test func withoutReplaceASecondItemGoesBesideTheFirst() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let attributes = ["service": "svc", "username": "ann"]
        let first = try collection.create(label: "1", attributes: attributes, secret: Self.secret("one"), replace: false)
        let second = try collection.create(label: "2", attributes: attributes, secret: Self.secret("two"), replace: false)
        #expect(!first.replaced && !second.replaced)
        #expect(first.item.id != second.item.id)
        #expect(try collection.secret(id: first.item.id) == Self.secret("one"))
        #expect(try collection.secret(id: second.item.id) == Self.secret("two"))
        #expect(Set(try collection.search(attributes).map(\.id)) == [first.item.id, second.item.id])
        // The keychain's view: two generic passwords of that service and account; the first has
        // the plain key, so an add of that key is still a duplicate.
        let stored = try Self.genericPasswords(keychain, service: "svc", account: "ann")
        #expect(Set(stored.compactMap(\.secret)) == [Data("one".utf8), Data("two".utf8)])
        let groups = stored.map { $0.attributes[AttributeName.sharingGroup]?.stringValue }
        #expect(groups.filter { $0 == nil }.count == 1 && groups.compactMap { $0 }.filter { !$0.isEmpty }.count == 1, "\(groups)")
        let duplicate = #expect(throws: KeychainStoreError.self) {
            try keychain.file.add(.genericPassword, attributes: [AttributeName.service: .string("svc"), AttributeName.account: .string("ann")],
                                  secret: Data("x".utf8), identity: ClientIdentity(accessGroups: [ClientIdentity.sharedGroup]))
        }
        #expect(duplicate?.status == SecStatus.duplicateItem)
    }

    /// Setting an item's attributes to another item's set moves it onto that item's keychain
    /// key: it goes beside it (a sharing group of its own), as a second CreateItem would, rather
    /// than failing with the keychain's duplicate-item status.
    @Test func attributesSetOntoAnotherItemsKeyKeepBothItems() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let first = try collection.create(label: "1", attributes: ["service": "svc", "username": "ann"], secret: Self.secret("one"), replace: false).item
        let second = try collection.create(label: "2", attributes: ["service": "svc", "username": "bob"], secret: Self.secret("two"), replace: false).item
        try collection.setAttributes(id: second.id, ["service": "svc", "username": "ann"])
        #expect(Set(try collection.search(["service": "svc", "username": "ann"]).map(\.id)) == [first.id, second.id])
        #expect(try collection.secret(id: first.id) == Self.secret("one"))
        #expect(try collection.secret(id: second.id) == Self.secret("two"))
        #expect(try collection.search(["username": "bob"]).isEmpty)
    }

    @Test func replaceTakesTheExactSetThenTheFirstCreated() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let plain = ["service": "svc", "username": "ann"]
        let withApplication = plain.merging(["application": "mail"]) { $1 }
        // An item whose set contains the given one, then two with exactly it.
        let containing = try collection.create(label: "c", attributes: withApplication, secret: Self.secret("c"), replace: false).item
        let exact1 = try collection.create(label: "e1", attributes: plain, secret: Self.secret("e1"), replace: false).item
        let exact2 = try collection.create(label: "e2", attributes: plain, secret: Self.secret("e2"), replace: false).item
        let replaced = try collection.create(label: "r", attributes: plain, secret: Self.secret("r"), replace: true)
        #expect(replaced.replaced && replaced.item.id == exact1.id)
        #expect(try collection.secret(id: exact1.id) == Self.secret("r"))
        #expect(try collection.secret(id: exact2.id) == Self.secret("e2"))
        #expect(try collection.secret(id: containing.id) == Self.secret("c"))
        #expect(try collection.allItems().count == 3)
    }

    /// An item of the same keychain key whose set neither contains the given one nor is contained
    /// in it is another item: `replace` leaves it and adds one beside it.
    @Test func replaceLeavesAnUnrelatedSetOfTheSameKey() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let fromLibsecret = ["service": "svc", "username": "ann", "xdg:schema": "org.example.Mail"]
        let fromKeyring = ["service": "svc", "username": "ann", "application": "Python keyring library"]
        let first = try collection.create(label: "a", attributes: fromLibsecret, secret: Self.secret("a"), replace: true)
        let second = try collection.create(label: "b", attributes: fromKeyring, secret: Self.secret("b"), replace: true)
        #expect(!second.replaced && second.item.id != first.item.id)
        #expect(try collection.item(id: first.item.id).attributes == fromLibsecret)
        #expect(try collection.secret(id: first.item.id) == Self.secret("a"))
        #expect(try collection.search(["service": "svc", "username": "ann"]).count == 2)
    }

    /// Once the item holding the plain key is gone, `replace` still finds the one set apart.
    @Test func replaceFindsAnItemSetApartAfterTheFirstIsDeleted() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let attributes = ["k": "v"]
        let first = try collection.create(label: "1", attributes: attributes, secret: Self.secret("1"), replace: false).item
        let second = try collection.create(label: "2", attributes: attributes, secret: Self.secret("2"), replace: false).item
        try collection.delete(id: first.id)
        let replaced = try collection.create(label: "3", attributes: attributes, secret: Self.secret("3"), replace: true)
        #expect(replaced.replaced && replaced.item.id == second.id)
        #expect(try collection.allItems().map(\.id) == [second.id])
    }
}
