import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Primary keys, errSecDuplicateItem, and equality
/// of blob values by their bytes.
@Suite("Rules: primary keys and duplicates")
struct RulesPrimaryKeyTests {
    static let primaryKeyCases: [(PasswordClass, Int)] = PasswordClass.allCases.flatMap { c in
        c.primaryKeyVariants.indices.map { (c, $0) }
    }

    @Test("Adding an item whose primary key equals a live item's is errSecDuplicateItem", arguments: PasswordClass.allCases)
    func identicalIsDuplicate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecValueData: Data("other".utf8)])) == errSecDuplicateItem)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
            #expect(matchCount(passwordClass.base) == 1)
        }
    }

    @Test("Each primary-key attribute distinguishes items: differing only in it, both are stored; equal in it, a duplicate",
          arguments: primaryKeyCases)
    func eachPrimaryKeyAttribute(_ passwordClass: PasswordClass, _ index: Int) throws {
        let (name, first, second) = passwordClass.primaryKeyVariants[index]
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([name: first])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([name: second])) == errSecSuccess, "\(name)")
            #expect(add(passwordClass.withSecret.with([name: first])) == errSecDuplicateItem, "\(name)")
            #expect(add(passwordClass.withSecret.with([name: second])) == errSecDuplicateItem, "\(name)")
        }
    }

    @Test("The access group is part of the primary key: the same password may exist once per group",
          arguments: PasswordClass.allCases)
    func accessGroupIsPrimaryKey(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["group.one", "group.two"]))
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "group.one"])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "group.two"])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessGroup: "group.two"])) == errSecDuplicateItem)
            // No group named: the default (first) group, which already has it.
            #expect(add(passwordClass.withSecret) == errSecDuplicateItem)
        }
    }

    @Test("kSecAttrSynchronizable is part of the primary key: a synchronizable and a local copy coexist",
          arguments: PasswordClass.allCases)
    func synchronizableIsPrimaryKey(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecDuplicateItem)
            #expect(add(passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanFalse!])) == errSecDuplicateItem)
        }
    }

    @Test("The label is not part of the primary key: items differing only in label collide",
          arguments: PasswordClass.allCases)
    func labelIsNotPrimaryKey(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrLabel: "first"])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([kSecAttrLabel: "second"])) == errSecDuplicateItem)
        }
    }

    @Test("Attributes outside the primary key do not distinguish items",
          arguments: PasswordClass.allCases, ["desc", "icmt", "crtr", "type", "invi", "nega", "pdmn"])
    func nonKeyAttributesDoNotDistinguish(_ passwordClass: PasswordClass, _ name: String) throws {
        let values: (Any, Any) = switch name {
        case "desc", "icmt": ("one", "two")
        case "pdmn": (kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock)
        default: (0, 1)
        }
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([name as CFString: values.0])) == errSecSuccess)
            #expect(add(passwordClass.withSecret.with([name as CFString: values.1])) == errSecDuplicateItem, "\(name)")
        }
    }

    @Test("kSecAttrGeneric is not part of a generic password's primary key")
    func genericAttributeIsNotPrimaryKey() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.genp.withSecret.with([kSecAttrGeneric: Data([1])])) == errSecSuccess)
            #expect(add(PasswordClass.genp.withSecret.with([kSecAttrGeneric: Data([2])])) == errSecDuplicateItem)
        }
    }

    @Test("A string account and the same bytes as data are the same key: they collide",
          arguments: PasswordClass.allCases)
    func stringAndDataCollide(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "a"])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: Data([0x61])])) == errSecDuplicateItem)
        }
    }

    @Test("A search by data finds an item stored with the same bytes as a string, and it comes back as a string",
          arguments: PasswordClass.allCases)
    func dataSearchFindsString(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "a", kSecAttrLabel: "label"])) == errSecSuccess)
            let found = try #require(attributes(of: passwordClass.base.with([kSecAttrAccount: Data([0x61])])))
            #expect(found["acct"] as? String == "a")
            #expect(exists(passwordClass.base.with([kSecAttrAccount: "a", kSecAttrLabel: Data("label".utf8)])) == errSecSuccess)
        }
    }

    @Test("A search by string finds an item stored with data, and it comes back as data", arguments: PasswordClass.allCases)
    func stringSearchFindsData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: Data("bob".utf8)])) == errSecSuccess)
            let found = try #require(attributes(of: passwordClass.base.with([kSecAttrAccount: "bob"])))
            #expect(found["acct"] as? Data == Data("bob".utf8))
        }
    }

    @Test("An absent account, an empty string account and an empty data account are the same key",
          arguments: PasswordClass.allCases)
    func absentEqualsEmpty(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let noAccount = passwordClass.withSecret.without(kSecAttrAccount)
            #expect(add(noAccount) == errSecSuccess)
            #expect(add(noAccount.with([kSecAttrAccount: ""])) == errSecDuplicateItem)
            #expect(add(noAccount.with([kSecAttrAccount: Data()])) == errSecDuplicateItem)
            #expect(exists(noAccount.with([kSecAttrAccount: Data()])) == errSecSuccess)
            #expect(exists(noAccount.with([kSecAttrAccount: ""])) == errSecSuccess)
        }
    }

    @Test("A port given as a number and as a numeric string is the same key")
    func numericStringPortCollides() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.inet.base.with([kSecAttrPort: 8080])) == errSecSuccess)
            #expect(add(PasswordClass.inet.base.with([kSecAttrPort: "8080"])) == errSecDuplicateItem)
            #expect(exists(PasswordClass.inet.base.with([kSecAttrPort: "8080"])) == errSecSuccess)
        }
    }

    @Test("An absent port and port 0 are the same key")
    func absentPortIsZero() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.inet.base) == errSecSuccess)
            #expect(add(PasswordClass.inet.base.with([kSecAttrPort: 0])) == errSecDuplicateItem)
        }
    }

    @Test("Matching is exact: values differing only in case are different keys", arguments: PasswordClass.allCases)
    func matchingIsCaseSensitive(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "Alice"])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: "alice"])) == errSecSuccess)
            #expect(matchCount(passwordClass.base.with([kSecAttrAccount: "ALICE"])) == 0)
        }
    }

    @Test("A duplicate add changes nothing about the stored item", arguments: PasswordClass.allCases)
    func duplicateAddChangesNothing(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrLabel: "original"])) == errSecSuccess)
            let before = try #require(attributes(of: passwordClass.base))
            #expect(add(passwordClass.base.with([kSecAttrLabel: "changed", kSecValueData: Data("x".utf8)])) == errSecDuplicateItem)
            let after = try #require(attributes(of: passwordClass.base))
            #expect(after["labl"] as? String == "original")
            #expect(after["mdat"] as? Date == before["mdat"] as? Date)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }
}
