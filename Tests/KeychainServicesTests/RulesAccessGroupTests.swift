import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Access groups: the default group of an add, which groups a caller may name, and which items a
/// search can see.
@Suite("Rules: access groups")
struct RulesAccessGroupTests {
    static let app = ClientIdentity(accessGroups: ["team.app", "team.shared"])
    static let otherApp = ClientIdentity(accessGroups: ["team.other"])

    @Test("An add without kSecAttrAccessGroup goes to the caller's first group", arguments: PasswordClass.allCases)
    func firstGroupIsDefault(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == "team.app")
            #expect(exists(passwordClass.base.with([kSecAttrAccessGroup: "team.app"])) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecAttrAccessGroup: "team.shared"])) == errSecItemNotFound)
        }
    }

    @Test("An add may name any group the caller holds", arguments: PasswordClass.allCases)
    func addToSecondGroup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "team.shared"])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == "team.shared")
        }
    }

    @Test("Naming a group the caller does not hold is errSecMissingEntitlement in every call", arguments: everyClassAndCall)
    func foreignGroupRefused(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(call.status(passwordClass.withSecret.with([kSecAttrAccessGroup: "team.other"])) == errSecMissingEntitlement)
        }
    }

    @Test("Update and delete naming a group not held are errSecMissingEntitlement even when nothing would match",
          arguments: PasswordClass.allCases)
    func foreignGroupBeforeMatching(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            let query = passwordClass.base.with([kSecAttrAccessGroup: "nobody.has.this"])
            #expect(update(query, item([kSecAttrLabel: "x"])) == errSecMissingEntitlement)
            #expect(delete(query) == errSecMissingEntitlement)
            #expect(copyMatching(query).status == errSecMissingEntitlement)
        }
    }

    @Test("Items of groups the caller does not hold are invisible, not an error", arguments: PasswordClass.allCases)
    func otherGroupsInvisible(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            keychain.run(as: Self.otherApp) {
                #expect(exists(passwordClass.base) == errSecItemNotFound)
                #expect(matchCount(passwordClass.only) == 0)
                #expect(update(passwordClass.base, item([kSecAttrLabel: "x"])) == errSecItemNotFound)
                #expect(delete(passwordClass.base) == errSecItemNotFound)
                // The same password in its own group does not collide with the other app's.
                #expect(add(passwordClass.withSecret) == errSecSuccess)
            }
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
            #expect(matchCount(passwordClass.only) == 1)
        }
    }

    @Test("A search without a group searches every group the caller holds", arguments: PasswordClass.allCases)
    func searchCoversAllHeldGroups(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "one", kSecAttrAccessGroup: "team.app"])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: "two", kSecAttrAccessGroup: "team.shared"])) == errSecSuccess)
            keychain.run(as: Self.otherApp) {
                #expect(add(passwordClass.base.with([kSecAttrAccount: "three"])) == errSecSuccess)
            }
            #expect(matchCount(passwordClass.only) == 2)
            keychain.run(as: ClientIdentity(accessGroups: ["team.shared"])) {
                #expect(matchCount(passwordClass.only) == 1)
            }
        }
    }

    @Test("The token group (com.apple.token) may be read but never written: errSecMissingEntitlement",
          arguments: PasswordClass.allCases)
    func tokenGroupReadOnly(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["team.app", kSecAttrAccessGroupToken as String]))
        keychain.run {
            let token = passwordClass.withSecret.with([kSecAttrAccessGroup: kSecAttrAccessGroupToken])
            #expect(add(token) == errSecMissingEntitlement)
            #expect(copyMatching(token).status == errSecItemNotFound)
            #expect(update(token, item([kSecAttrLabel: "x"])) == errSecMissingEntitlement)
            #expect(delete(token) == errSecMissingEntitlement)
        }
    }

    @Test("An update may move an item to another group the caller holds", arguments: PasswordClass.allCases)
    func moveToHeldGroup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccessGroup: "team.shared"])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == "team.shared")
            keychain.run(as: ClientIdentity(accessGroups: ["team.shared"])) {
                #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
            }
        }
    }

    @Test("An update moving an item to a group the caller does not hold is errSecMissingEntitlement and changes nothing",
          arguments: PasswordClass.allCases)
    func moveToForeignGroup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccessGroup: "team.other"])) == errSecMissingEntitlement)
            #expect(update(passwordClass.base, item([kSecAttrAccessGroup: kSecAttrAccessGroupToken])) == errSecMissingEntitlement)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == "team.app")
        }
    }

    @Test("A caller that holds no access group gets errSecMissingEntitlement from every call", arguments: everyClassAndCall)
    func noGroupsAtAll(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            keychain.run(as: ClientIdentity(accessGroups: [])) {
                #expect(call.status(passwordClass.withSecret) == errSecMissingEntitlement)
            }
        }
    }

    /// Update and delete check the raw kSecAttrAccessGroup value against the caller's groups
    /// before parsing (`_SecItemUpdate`, `_SecItemDelete`); add and search parse it first, and a
    /// number cannot become a string.
    @Test("A kSecAttrAccessGroup that is not a string: errSecMissingEntitlement in update and delete, errSecParam in add and search",
          arguments: PasswordClass.allCases)
    func nonStringGroup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let query = passwordClass.base.with([kSecAttrAccessGroup: 42])
            #expect(update(query, item([kSecAttrLabel: "x"])) == errSecMissingEntitlement)
            #expect(delete(query) == errSecMissingEntitlement)
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: 42])) == errSecParam)
            #expect(copyMatching(query).status == errSecParam)
        }
    }

    @Test("Groups are compared exactly: a group differing in case is not held", arguments: PasswordClass.allCases)
    func groupsCompareExactly(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "TEAM.APP"])) == errSecMissingEntitlement)
        }
    }

    @Test("A search may name its access group as UTF-8 data; it is read as the string", arguments: PasswordClass.allCases)
    func groupAsDataInSearch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: Self.app)
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "team.shared"])) == errSecSuccess)
            #expect(secret(of: passwordClass.base.with([kSecAttrAccessGroup: Data("team.shared".utf8)])) == Data("s3cret".utf8))
            #expect(exists(passwordClass.base.with([kSecAttrAccessGroup: Data("team.app".utf8)])) == errSecItemNotFound)
        }
    }
}
