import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Without kSecAttrSynchronizable every
/// call means "not synchronizable"; kSecAttrSynchronizableAny means "either".
@Suite("Rules: the implicit synchronizable filter")
struct RulesSyncTests {
    /// One local and one synchronizable copy of the same password, with different secrets.
    static func addBothCopies(_ passwordClass: PasswordClass) {
        #expect(add(passwordClass.base.with([kSecValueData: Data("local".utf8)])) == errSecSuccess)
        #expect(add(passwordClass.base.with([kSecValueData: Data("synced".utf8), kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
    }

    @Test("A search without kSecAttrSynchronizable never sees synchronizable items", arguments: PasswordClass.allCases)
    func searchIgnoresSynced(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(exists(passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
        }
    }

    @Test("kSecAttrSynchronizableAny in a search finds local and synchronizable items", arguments: PasswordClass.allCases)
    func anyFindsBoth(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addBothCopies(passwordClass)
            #expect(matchCount(passwordClass.base.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == 2)
            #expect(matchCount(passwordClass.base) == 1)
            #expect(secret(of: passwordClass.base) == Data("local".utf8))
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == Data("synced".utf8))
        }
    }

    @Test("kSecAttrSynchronizable accepts a number and a numeric string as well as a boolean", arguments: PasswordClass.allCases)
    func synchronizableAcceptsNumbers(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addBothCopies(passwordClass)
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: 1])) == Data("synced".utf8))
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: "1"])) == Data("synced".utf8))
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: 0])) == Data("local".utf8))
        }
    }

    @Test("An update without kSecAttrSynchronizable leaves synchronizable items alone", arguments: PasswordClass.allCases)
    func updateIgnoresSynced(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addBothCopies(passwordClass)
            #expect(update(passwordClass.base, item([kSecValueData: Data("new".utf8)])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == Data("new".utf8))
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == Data("synced".utf8))
        }
    }

    @Test("An update of only synchronizable items without kSecAttrSynchronizable is errSecItemNotFound",
          arguments: PasswordClass.allCases)
    func updateOfSyncedOnlyNotFound(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrLabel: "x"])) == errSecItemNotFound)
            #expect(delete(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("A delete without kSecAttrSynchronizable leaves synchronizable items alone", arguments: PasswordClass.allCases)
    func deleteIgnoresSynced(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addBothCopies(passwordClass)
            #expect(delete(passwordClass.base) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(exists(passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
        }
    }

    @Test("kSecAttrSynchronizableAny in an update or a delete acts on both copies", arguments: PasswordClass.allCases)
    func anyUpdatesAndDeletesBoth(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addBothCopies(passwordClass)
            let any = passwordClass.base.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])
            #expect(update(any, item([kSecAttrComment: "both"])) == errSecSuccess)
            #expect(matchCount(any.with([kSecAttrComment: "both"])) == 2)
            #expect(delete(any) == errSecSuccess)
            #expect(matchCount(any) == 0)
        }
    }

    @Test("kSecAttrSynchronizableAny in an add creates a local (non-synchronizable) item", arguments: PasswordClass.allCases)
    func anyInAddIsLocal(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect((stored["sync"] as? NSNumber)?.intValue == 0)
            #expect(exists(passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecItemNotFound)
        }
    }

    @Test("kSecAttrSynchronizableAny in attributesToUpdate is ignored", arguments: PasswordClass.allCases)
    func anyInChangesIgnored(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect((stored["sync"] as? NSNumber)?.intValue == 0)
        }
    }

    @Test("An update can make a local item synchronizable, and it then leaves the plain search",
          arguments: PasswordClass.allCases)
    func updateToSynchronizable(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(secret(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == Data("s3cret".utf8))
        }
    }

    @Test("A persistent-reference lookup finds a synchronizable item without naming kSecAttrSynchronizable",
          arguments: PasswordClass.allCases)
    func persistentReferenceIgnoresSyncFilter(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            let reference = try #require(persistentReference(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])))
            #expect(exists(item([kSecValuePersistentRef: reference])) == errSecSuccess)
            #expect(update(item([kSecValuePersistentRef: reference]), item([kSecAttrLabel: "l"])) == errSecSuccess)
            #expect(delete(item([kSecValuePersistentRef: reference])) == errSecSuccess)
        }
    }
}
