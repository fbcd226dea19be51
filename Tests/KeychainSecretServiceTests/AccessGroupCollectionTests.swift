import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
@testable import KeychainSecretService

/// Each collection call is made as a caller's identity: items of groups it lacks do not exist
/// for it, what it creates goes into its first group, and a secret a search kept for one
/// identity (``SecretPrefetch``) is never handed to another.
@Suite struct AccessGroupCollectionTests {
    static let appA = ClientIdentity(applicationIdentifier: "flatpak.org.example.A", keychainAccessGroups: ["flatpak.org.example.A"])
    static let appB = ClientIdentity(applicationIdentifier: "flatpak.org.example.B", keychainAccessGroups: ["flatpak.org.example.B"])
    static let key = ["service": "demo", "username": "ann"]
    static func secret(_ text: String) -> SecretValue { SecretValue(bytes: Data(text.utf8)) }

    static func collections(_ keychain: TestKeychain) -> [any SecretCollection] {
        [KeychainCollection(file: keychain.file, label: "Login"), MemoryCollection(label: "Session")]
    }

    @Test(arguments: [0, 1])
    func anItemOfAnotherGroupDoesNotExistForTheCaller(_ which: Int) throws {
        let keychain = try TestKeychain()
        let collection = Self.collections(keychain)[which]
        let id = try collection.create(label: "A", attributes: Self.key, secret: Self.secret("secret-of-A"), replace: false, as: Self.appA).item.id

        #expect(try collection.search(Self.key, as: Self.appA).map(\.id) == [id])
        #expect(try collection.secret(id: id, grant: nil, as: Self.appA) == Self.secret("secret-of-A"))
        for other in [Self.appB, ClientIdentity.unconfigured] {
            #expect(try collection.search(Self.key, as: other).isEmpty)
            #expect(try collection.searchIncludingLocked(Self.key, as: other).records.isEmpty)
            #expect(try collection.allItems(as: other).isEmpty)
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.item(id: id, grant: nil, as: other) }
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.secret(id: id, grant: nil, as: other) }
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.setSecret(id: id, Self.secret("x"), as: other) }
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.setLabel(id: id, "x", as: other) }
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.setAttributes(id: id, ["service": "x"], as: other) }
            #expect(throws: SecretCollectionError.noSuchItem) { try collection.delete(id: id, grant: nil, as: other) }
            #expect(!collection.needsGrant(id: id, as: other))
            // Replacing by the same attributes adds an item of its own, beside A's.
            let (mine, replaced) = try collection.create(label: "mine", attributes: Self.key, secret: Self.secret("other"), replace: true, as: other)
            #expect(!replaced && mine.id != id)
        }
        #expect(try collection.secret(id: id, grant: nil, as: Self.appA) == Self.secret("secret-of-A"))
        #expect(try collection.item(id: id, grant: nil, as: Self.appA).label == "A")
    }

    /// The item goes into the caller's first group, where the engine (as `SecItem*` with those
    /// groups would) finds it.
    @Test func createStoresIntoTheFirstGroup() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let both = ClientIdentity(accessGroups: ["flatpak.org.example.A", ClientIdentity.sharedGroup])
        _ = try collection.create(label: "A", attributes: Self.key, secret: Self.secret("s"), replace: false, as: both)
        let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("demo")])
        let stored = try keychain.file.find(query, identity: .administrator(), limit: nil, includeSecrets: false, authorize: { _ in .skip })
        #expect(stored.map { $0.attributes[AttributeName.accessGroup]?.text } == ["flatpak.org.example.A"])
    }

    /// The attack: A looks its password up (search, then the kept secret is opened), and B, who
    /// learnt the item's path from a signal, asks for that path's secret before A does.
    @Test func aKeptSecretIsNotHandedToAnotherIdentity() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let id = try collection.create(label: "A", attributes: Self.key, secret: Self.secret("secret-of-A"), replace: false, as: Self.appA).item.id
        #expect(try collection.search(Self.key, as: Self.appA).map(\.id) == [id])
        #expect(collection.openKeptSecret())
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.secret(id: id, grant: nil, as: Self.appB) }
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.secret(id: id, grant: nil, as: .unconfigured) }
        #expect(try collection.secret(id: id, grant: nil, as: Self.appA) == Self.secret("secret-of-A"))
    }
}
