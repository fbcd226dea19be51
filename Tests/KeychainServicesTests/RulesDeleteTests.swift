import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// SecItemDelete: what it matches, and what it removes.
@Suite("Rules: SecItemDelete")
struct RulesDeleteTests {
    @Test("A delete removes every matching item and no other", arguments: PasswordClass.allCases)
    func deletesAllMatches(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for name in ["a", "b", "c"] {
                #expect(add(passwordClass.base.with([kSecAttrAccount: name, kSecAttrLabel: "doomed"])) == errSecSuccess)
            }
            #expect(add(passwordClass.base.with([kSecAttrAccount: "d", kSecAttrLabel: "kept"])) == errSecSuccess)
            let all = passwordClass.base.without(kSecAttrAccount)
            #expect(delete(all.with([kSecAttrLabel: "doomed"])) == errSecSuccess)
            #expect(matchCount(all) == 1)
            #expect(exists(all.with([kSecAttrLabel: "kept"])) == errSecSuccess)
        }
    }

    @Test("A delete of a whole class removes every item of that class only", arguments: PasswordClass.allCases)
    func deleteWholeClass(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let other: PasswordClass = passwordClass == .genp ? .inet : .genp
            for name in ["a", "b"] { #expect(add(passwordClass.base.with([kSecAttrAccount: name])) == errSecSuccess) }
            #expect(add(other.base) == errSecSuccess)
            #expect(delete(passwordClass.only) == errSecSuccess)
            #expect(matchCount(passwordClass.only) == 0)
            #expect(matchCount(other.only) == 1)
        }
    }

    @Test("A delete that matches nothing is errSecItemNotFound", arguments: PasswordClass.allCases)
    func noMatch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(delete(passwordClass.base) == errSecItemNotFound)
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(delete(passwordClass.base) == errSecSuccess)
            #expect(delete(passwordClass.base) == errSecItemNotFound)
        }
    }

    // macOS's keychain accepts kSecMatchLimitAll in a delete (iOS's refuses it); code written for
    // macOS sends it, so it is accepted here and means what a delete does anyway.
    @Test("kSecMatchLimitAll in a delete removes every match and no other", arguments: PasswordClass.allCases)
    func matchLimitAllDeletesEveryMatch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for name in ["a", "b", "c"] {
                #expect(add(passwordClass.base.with([kSecAttrAccount: name, kSecAttrLabel: "doomed"])) == errSecSuccess)
            }
            #expect(add(passwordClass.base.with([kSecAttrAccount: "d", kSecAttrLabel: "kept"])) == errSecSuccess)
            let all = passwordClass.base.without(kSecAttrAccount)
            let doomed = all.with([kSecAttrLabel: "doomed", kSecMatchLimit: kSecMatchLimitAll])
            #expect(delete(doomed) == errSecSuccess)
            #expect(matchCount(all) == 1)
            #expect(exists(all.with([kSecAttrLabel: "kept"])) == errSecSuccess)
            #expect(delete(doomed) == errSecItemNotFound)
        }
    }

    @Test("kSecMatchLimitAll in a delete works however the query is built (String keys or CFString keys)")
    func matchLimitAllInWrapperShapes() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.genp.withSecret) == errSecSuccess)
            let stringKeyed: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                              kSecAttrService as String: "example.service",
                                              kSecMatchLimit as String: kSecMatchLimitAll as String]
            #expect(SecItemDelete(stringKeyed as CFDictionary) == errSecSuccess)
            #expect(add(PasswordClass.genp.withSecret) == errSecSuccess)
            #expect(SecItemDelete([kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll] as CFDictionary)
                == errSecSuccess)
            #expect(exists(PasswordClass.genp.base) == errSecItemNotFound)
        }
    }

    @Test("Any limit but kSecMatchLimitAll in a delete (kSecMatchLimitOne, a count, a negative count) is errSecParam and deletes nothing",
          arguments: PasswordClass.allCases)
    func otherLimitsRefused(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for limit in [kSecMatchLimitOne as Any, 1 as Any, 2 as Any, -1 as Any, "m_LimitSome" as Any] {
                #expect(delete(passwordClass.base.with([kSecMatchLimit: limit])) == errSecParam, "\(limit)")
            }
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("kSecMatchLimitAll does not let other search keys into a delete", arguments: PasswordClass.allCases)
    func matchLimitAllWithOtherSearchKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let query = passwordClass.base.with([kSecMatchLimit: kSecMatchLimitAll, kSecMatchCaseInsensitive: kCFBooleanTrue!])
            #expect(delete(query) == errSecParam)
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("Any other search key in a delete is errSecParam", arguments: PasswordClass.allCases)
    func otherSearchKeysRefused(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for key in [kSecMatchCaseInsensitive, kSecMatchItemList, kSecMatchSubjectContains, "m_Whatever" as CFString] {
                #expect(delete(passwordClass.base.with([key: kCFBooleanTrue!])) == errSecParam, "\(key)")
            }
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("Return keys, kSecValueData and kSecUseItemList in a delete are ignored", arguments: PasswordClass.allCases)
    func ignoredKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(delete(passwordClass.base.with([kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!,
                                                    kSecValueData: Data("not the secret".utf8), kSecUseItemList: ["x"]])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("A deleted local item is gone for good: adding it again gives a new persistent reference",
          arguments: PasswordClass.allCases)
    func localDeleteLeavesNothing(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let first = try #require(persistentReference(of: passwordClass.base))
            #expect(delete(passwordClass.base) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecAttrTombstone: 1])) == errSecItemNotFound)
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(persistentReference(of: passwordClass.base) != first)
        }
    }
}
