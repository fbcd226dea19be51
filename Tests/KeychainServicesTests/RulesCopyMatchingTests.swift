import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// SecItemCopyMatching: the match limit, how attributes match, and what an empty result is.
/// Search and use keys are in RulesSearchKeysTests.
@Suite("Rules: SecItemCopyMatching")
struct RulesCopyMatchingTests {
    /// Three items of the class, added in the order first, second, third.
    static func addThree(_ passwordClass: PasswordClass) {
        for name in ["first", "second", "third"] {
            #expect(add(passwordClass.base.with([kSecAttrAccount: name, kSecValueData: Data(name.utf8)])) == errSecSuccess)
        }
    }

    static func all(_ passwordClass: PasswordClass) -> Item { passwordClass.base.without(kSecAttrAccount) }

    @Test("Without kSecMatchLimit one item is returned, not an array", arguments: PasswordClass.allCases)
    func defaultLimitIsOne(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnAttributes: kCFBooleanTrue!]))
            #expect(status == errSecSuccess)
            #expect(result is [String: Any])
            #expect(!(result is [Any]))
        }
    }

    @Test("kSecMatchLimitOne and the number 1 both return a bare value", arguments: PasswordClass.allCases)
    func limitOneIsBare(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            for limit in [kSecMatchLimitOne as Any, 1 as Any] {
                let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: limit]))
                #expect(status == errSecSuccess)
                #expect(result is Data)
            }
        }
    }

    @Test("A numeric limit of 2 returns an array of at most two", arguments: PasswordClass.allCases)
    func limitTwoIsArray(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: 2]))
            #expect(status == errSecSuccess)
            #expect((result as? [Data]) == [Data("first".utf8), Data("second".utf8)])
        }
    }

    @Test("A limit other than one returns an array even when only one item matches", arguments: PasswordClass.allCases)
    func arrayForSingleMatch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for limit in [kSecMatchLimitAll as Any, 5 as Any] {
                let (status, result) = copyMatching(passwordClass.base.with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: limit]))
                #expect(status == errSecSuccess)
                #expect((result as? [Data]) == [Data("s3cret".utf8)])
            }
        }
    }

    @Test("A negative numeric limit means no limit (Security's unlimited is -1)", arguments: PasswordClass.allCases)
    func negativeLimit(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: -1]))
            #expect(status == errSecSuccess)
            #expect((result as? [Data])?.count == 3)
        }
    }

    @Test("A numeric limit of 0 finds nothing: errSecItemNotFound", arguments: PasswordClass.allCases)
    func limitZero(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: 0]))
            #expect(status == errSecItemNotFound)
            #expect(result == nil)
        }
    }

    @Test("A kSecMatchLimit that is neither a limit constant nor a number is errSecParam", arguments: PasswordClass.allCases)
    func badLimit(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for limit in ["m_LimitSome" as Any, kCFBooleanTrue! as Any, Data() as Any, Date() as Any] {
                #expect(copyMatching(passwordClass.base.with([kSecMatchLimit: limit])).status == errSecParam)
            }
        }
    }

    @Test("A numeric limit must be a whole number: 2.5 is errSecParam, 2.0 is 2", arguments: PasswordClass.allCases)
    func fractionalLimit(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            #expect(copyMatching(Self.all(passwordClass).with([kSecMatchLimit: 2.5])).status == errSecParam)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: 2.0]))
            #expect(status == errSecSuccess)
            #expect((result as? [Data])?.count == 2)
        }
    }

    @Test("Arrays list items in insertion order", arguments: PasswordClass.allCases)
    func insertionOrder(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for name in ["zulu", "alpha", "mike", "bravo"] {
                #expect(add(passwordClass.base.with([kSecAttrAccount: name])) == errSecSuccess)
            }
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecReturnAttributes: kCFBooleanTrue!,
                                                                             kSecMatchLimit: kSecMatchLimitAll]))
            #expect(status == errSecSuccess)
            let accounts = (result as? [[String: Any]])?.compactMap { $0["acct"] as? String }
            #expect(accounts == ["zulu", "alpha", "mike", "bravo"])
        }
    }

    @Test("No return keys with kSecMatchLimitAll returns an empty array", arguments: PasswordClass.allCases)
    func noReturnKeysLimitAll(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            Self.addThree(passwordClass)
            let (status, result) = copyMatching(Self.all(passwordClass).with([kSecMatchLimit: kSecMatchLimitAll]))
            #expect(status == errSecSuccess)
            let array = result as? [Any]
            #expect(array != nil)
            #expect(array?.isEmpty == true)
        }
    }

    @Test("No return keys with the default limit leaves the result nil", arguments: PasswordClass.allCases)
    func noReturnKeysLimitOne(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = copyMatching(passwordClass.base)
            #expect(status == errSecSuccess)
            #expect(result == nil)
        }
    }

    @Test("No match is errSecItemNotFound with the result untouched, never an empty array",
          arguments: PasswordClass.allCases)
    func noMatch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for limit in [kSecMatchLimitAll as Any, kSecMatchLimitOne as Any, 10 as Any] {
                var result: CFTypeRef? = "sentinel" as NSString
                let query = passwordClass.base.with([kSecAttrAccount: "nobody", kSecReturnAttributes: kCFBooleanTrue!, kSecMatchLimit: limit])
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
                #expect(result as? String == "sentinel")
            }
        }
    }

    @Test("A nil result pointer is an existence check, even with return keys", arguments: PasswordClass.allCases)
    func nilResultPointer(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let query = passwordClass.base.with([kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!])
            #expect(exists(query) == errSecItemNotFound)
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(exists(query) == errSecSuccess)
            #expect(exists(query.with([kSecMatchLimit: kSecMatchLimitAll])) == errSecSuccess)
        }
    }

    @Test("Several attributes in a query must all match", arguments: PasswordClass.allCases)
    func attributesAreAnded(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrLabel: "L1", kSecAttrComment: "C1"])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: "bob", kSecAttrLabel: "L1", kSecAttrComment: "C2"])) == errSecSuccess)
            let all = Self.all(passwordClass)
            #expect(matchCount(all.with([kSecAttrLabel: "L1"])) == 2)
            #expect(matchCount(all.with([kSecAttrLabel: "L1", kSecAttrComment: "C2"])) == 1)
            #expect(matchCount(all.with([kSecAttrLabel: "L2", kSecAttrComment: "C2"])) == 0)
        }
    }

    @Test("A search returns only items of the class it names", arguments: PasswordClass.allCases)
    func classesAreSeparate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let other: PasswordClass = passwordClass == .genp ? .inet : .genp
            #expect(add(other.base.with([kSecAttrAccount: "shared"])) == errSecSuccess)
            #expect(exists(passwordClass.only.with([kSecAttrAccount: "shared"])) == errSecItemNotFound)
        }
    }
}
