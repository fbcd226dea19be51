import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
@testable import KeychainSecretService

/// The keychain-backed collection: Secret Service attribute sets stored as keychain items and read
/// back exactly, found by blind index where the keychain has a column for them.
@Suite struct KeychainCollectionTests {
    static func secret(_ text: String) -> SecretValue { SecretValue(bytes: Data(text.utf8)) }

    @Test func serviceAndUsernameAreAGenericPasswordsServiceAndAccount() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let attributes = ["application": "Python keyring library", "service": "svc", "username": "ann"]
        let created = try collection.create(label: "Password for 'ann' on 'svc'", attributes: attributes, secret: Self.secret("pw"), replace: true)
        let stored = try keychain.file.find(ItemQuery(itemClass: .genericPassword,
                                                      filters: [AttributeName.service: .string("svc"), AttributeName.account: .string("ann")]),
                                            identity: .unconfigured, limit: nil, includeSecrets: true)
        #expect(stored.count == 1)
        #expect(stored.first?.secret == Data("pw".utf8))
        #expect(try collection.item(id: created.item.id).attributes == attributes)
        #expect(try collection.search(["service": "svc"]).map(\.id) == [created.item.id])
        #expect(try collection.search(["application": "Python keyring library"]).map(\.id) == [created.item.id])
        #expect(try collection.search(["service": "svc", "username": "bob"]).isEmpty)
    }

    @Test func anItemAddedByTheKeychainShowsServiceAndUsername() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: [AttributeName.service: .string("S"), AttributeName.account: .data(Data("U".utf8))],
                                  secret: Data("x".utf8), identity: .unconfigured)
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let found = try collection.search(["service": "S", "username": "U"])
        #expect(found.map(\.attributes) == [["service": "S", "username": "U"]])
        #expect(try collection.secret(id: found[0].id) == Self.secret("x"))
    }

    @Test func networkPasswordsAreInternetPasswords() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let attributes = ["user": "bob", "server": "git.example.com", "protocol": "https", "object": "team/repo.git", "port": "8443"]
        let created = try collection.create(label: "Git", attributes: attributes, secret: Self.secret("s3"), replace: true)
        let stored = try keychain.file.find(ItemQuery(itemClass: .internetPassword, filters: [AttributeName.server: .string("git.example.com")]),
                                            identity: .unconfigured, limit: nil, includeSecrets: false)
        #expect(stored.count == 1)
        #expect(stored.first?.attributes[AttributeName.protocol] == .string("htps"))
        #expect(stored.first?.attributes[AttributeName.port] == .integer(8443))
        #expect(try collection.item(id: created.item.id).attributes == attributes)
        #expect(try collection.search(["server": "git.example.com", "protocol": "https"]).count == 1)
        #expect(try collection.search(["server": "git.example.com", "protocol": "http"]).isEmpty)
        // libsecret searches with the schema's name; an internet password the keychain's own tools
        // wrote (no xdg:schema of its own) is a network password all the same.
        _ = try keychain.file.add(.internetPassword, attributes: [AttributeName.server: .string("plain.example.org"), AttributeName.account: .string("c")],
                                  secret: Data("p".utf8), identity: .unconfigured)
        let bySchema = try collection.search(["xdg:schema": "org.gnome.keyring.NetworkPassword", "server": "plain.example.org"])
        #expect(bySchema.map(\.attributes) == [["server": "plain.example.org", "user": "c"]])
        // Newer git names its own schema, with the same attributes: also a network password.
        #expect(try collection.search(["xdg:schema": "org.git.Password", "server": "plain.example.org"]).count == 1)
        let newerGit = ["xdg:schema": "org.git.Password", "user": "d", "server": "new.example.org", "protocol": "https"]
        let created2 = try collection.create(label: "g", attributes: newerGit, secret: Self.secret("x"), replace: true)
        #expect(created2.item.id.hasPrefix("i"))
        #expect(try collection.item(id: created2.item.id).attributes == newerGit)
    }

    @Test func anyOtherAttributeSetRoundTripsWhole() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let odd = ["xdg:schema": "org.example.Odd", "a=b": "c&d", "%": "", "server": "not-network", "weird": "ü\u{0}x"]
        let created = try collection.create(label: "odd", attributes: odd, secret: SecretValue(bytes: Data([0, 255, 1]), contentType: "application/octet-stream"),
                                            replace: false)
        #expect(try collection.item(id: created.item.id).attributes == odd)
        #expect(try collection.secret(id: created.item.id) == SecretValue(bytes: Data([0, 255, 1]), contentType: "application/octet-stream"))
        #expect(try collection.search(["a=b": "c&d"]).map(\.id) == [created.item.id])
        #expect(try collection.search(["a": "b=c&d"]).isEmpty)
        // The exact set is the key: storing it again replaces, a subset is another item.
        let again = try collection.create(label: "odd2", attributes: odd, secret: Self.secret("new"), replace: true)
        #expect(again.replaced && again.item.id == created.item.id)
        let subset = try collection.create(label: "sub", attributes: ["a=b": "c&d"], secret: Self.secret("sub"), replace: true)
        #expect(!subset.replaced)
        #expect(try collection.allItems().count == 2)
    }

    /// Storing over an item that holds the same keychain key but was written by the keychain's
    /// own tools (no kind, no stored set) replaces that item.
    @Test func storingOverAKeychainItemWithTheSameKeyReplacesIt() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.internetPassword, attributes: [AttributeName.server: .string("git.example.com"), AttributeName.account: .string("bob"),
                                                                   AttributeName.protocol: .string("htps")],
                                  secret: Data("old".utf8), identity: .unconfigured)
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let stored = try collection.create(label: "git", attributes: ["xdg:schema": "org.gnome.keyring.NetworkPassword", "user": "bob",
                                                                      "server": "git.example.com", "protocol": "https"],
                                           secret: Self.secret("new"), replace: true)
        #expect(stored.replaced)
        #expect(try collection.secret(id: stored.item.id) == Self.secret("new"))
        #expect(try collection.allItems().count == 1)
    }

    @Test func otherAccessGroupsAreInvisible() throws {
        let keychain = try TestKeychain()
        _ = try keychain.file.add(.genericPassword, attributes: [AttributeName.service: .string("S"), AttributeName.account: .string("U"),
                                                                  AttributeName.accessGroup: .string("team.app")],
                                  secret: Data("private".utf8), identity: ClientIdentity(accessGroups: ["team.app"]))
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        #expect(try collection.search([:]).isEmpty)
        #expect(try collection.search(["service": "S"]).isEmpty)
    }

    @Test func labelsSecretsAndDeletion() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let item = try collection.create(label: "one", attributes: ["k": "v"], secret: Self.secret("1"), replace: false).item
        try collection.setLabel(id: item.id, "renamed")
        try collection.setSecret(id: item.id, SecretValue(bytes: Data("2".utf8), contentType: "text/x-custom"))
        #expect(try collection.item(id: item.id).label == "renamed")
        #expect(try collection.secret(id: item.id) == SecretValue(bytes: Data("2".utf8), contentType: "text/x-custom"))
        try collection.setAttributes(id: item.id, ["k": "w", "extra": "1"])
        #expect(try collection.item(id: item.id).attributes == ["k": "w", "extra": "1"])
        #expect(throws: SecretCollectionError.self) { try collection.setAttributes(id: item.id, ["server": "h", "user": "u"]) }
        try collection.delete(id: item.id)
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.item(id: item.id) }
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.item(id: "gzz") }
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.item(id: "g" + String(repeating: "0", count: 32)) }
    }

    /// The keychain deletes such an item for anyone who asks (as `SecItemDelete` does); the
    /// collection, like its reads, wants the grant the keychain password gives.
    @Test func anItemThatNeedsTheUserIsDeletedOnlyWithAGrant() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        let stored = try keychain.file.add(.genericPassword, attributes: [AttributeName.service: .string("bank"), AttributeName.account: .string("me")],
                                           secret: Data("1234".utf8), identity: .unconfigured,
                                           accessControl: ItemAccessControl(encoded: Data("presence".utf8), requiresAuthentication: true))
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let id = KeychainCollection.id(of: stored)
        #expect(collection.needsGrant(id: id))
        #expect(throws: SecretCollectionError.locked) { try collection.delete(id: id) }
        #expect(collection.needsGrant(id: id))
        try collection.delete(id: id, grant: try collection.grant(password: "pw"))
        #expect(!collection.needsGrant(id: id))
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.delete(id: id, grant: try collection.grant(password: "pw")) }
    }

    @Test func lockedKeychainSaysLocked() throws {
        let keychain = try TestKeychain()
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let item = try collection.create(label: "one", attributes: ["k": "v"], secret: Self.secret("1"), replace: false).item
        try keychain.file.setPassword("pw", currentPassword: nil)
        try collection.lock()
        #expect(collection.isLocked)
        #expect(throws: SecretCollectionError.locked) { try collection.secret(id: item.id) }
        #expect(throws: SecretCollectionError.self) { try collection.unlock(password: "wrong") }
        #expect(collection.isLocked)
        try collection.unlock(password: "pw")
        #expect(!collection.isLocked)
        #expect(try collection.secret(id: item.id) == Self.secret("1"))
        keychain.file.forgetSharedUnlockState()
    }
}
