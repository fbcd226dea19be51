import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// APPLE-SEMANTICS §3.4 (match limit), §3.5 (matching), §3.6 (search keys), §3.14 (empty
/// results) and surprises 5, 6, 25, 26 and 31.
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

    @Test("kSecMatchCaseInsensitive is accepted and ignored: matching stays case-sensitive", arguments: PasswordClass.allCases)
    func caseInsensitiveIgnored(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "Alice"])) == errSecSuccess)
            let query = passwordClass.base.with([kSecAttrAccount: "alice", kSecMatchCaseInsensitive: kCFBooleanTrue!])
            #expect(exists(query) == errSecItemNotFound)
            #expect(exists(query.with([kSecAttrAccount: "Alice"])) == errSecSuccess)
        }
    }

    @Test("kSecValueData in a search is ignored: it neither filters nor fails", arguments: PasswordClass.allCases)
    func valueDataInSearchIgnored(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecValueData: Data("wrong secret".utf8)])) == errSecSuccess)
        }
    }

    @Test("kSecValueData that is not data is errSecParam even in a search", arguments: PasswordClass.allCases)
    func valueDataInSearchMustBeData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecValueData: "s3cret"])) == errSecParam)
        }
    }

    @Test("kSecMatchHostOrSubdomainOfHost keeps internet passwords whose server is the host or a subdomain of it")
    func hostOrSubdomain() throws {
        let keychain = try TestKeychain()
        keychain.run {
            for server in ["example.com", "www.example.com", "a.b.example.com", "badexample.com", "example.org", "example.com.evil.net"] {
                #expect(add(item([kSecClass: kSecClassInternetPassword, kSecAttrServer: server])) == errSecSuccess)
            }
            let (status, result) = copyMatching(item([kSecClass: kSecClassInternetPassword,
                                                      kSecMatchHostOrSubdomainOfHost: "example.com",
                                                      kSecReturnAttributes: kCFBooleanTrue!, kSecMatchLimit: kSecMatchLimitAll]))
            #expect(status == errSecSuccess)
            let servers = Set((result as? [[String: Any]])?.compactMap { $0["srvr"] as? String } ?? [])
            #expect(servers == ["example.com", "www.example.com", "a.b.example.com"])
            #expect(exists(item([kSecClass: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost: "nothing.test"])) == errSecItemNotFound)
        }
    }

    @Test("kSecMatchHostOrSubdomainOfHost respects the match limit")
    func hostOrSubdomainLimit() throws {
        let keychain = try TestKeychain()
        keychain.run {
            for server in ["a.example.com", "other.net", "b.example.com", "c.example.com"] {
                #expect(add(item([kSecClass: kSecClassInternetPassword, kSecAttrServer: server])) == errSecSuccess)
            }
            let (status, result) = copyMatching(item([kSecClass: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost: "example.com",
                                                      kSecReturnAttributes: kCFBooleanTrue!, kSecMatchLimit: 2]))
            #expect(status == errSecSuccess)
            #expect((result as? [[String: Any]])?.compactMap { $0["srvr"] as? String } == ["a.example.com", "b.example.com"])
        }
    }

    @Test("kSecMatchHostOrSubdomainOfHost on a generic password is errSecUnimplemented")
    func hostOrSubdomainOnGenericPassword() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.genp.withSecret) == errSecSuccess)
            #expect(copyMatching(PasswordClass.genp.base.with([kSecMatchHostOrSubdomainOfHost: "example.com"])).status == errSecUnimplemented)
        }
    }

    @Test("kSecMatchHostOrSubdomainOfHost that is not a string is errSecParam")
    func hostOrSubdomainNotString() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(PasswordClass.inet.base.with([kSecMatchHostOrSubdomainOfHost: 5])).status == errSecParam)
        }
    }

    @Test("kSecMatchIssuers on a password is errSecUnimplemented", arguments: PasswordClass.allCases)
    func issuersOnPasswords(_ passwordClass: PasswordClass) throws {
        // A DER Name: SEQUENCE { SET { SEQUENCE { commonName, UTF8String "x" } } }.
        let name = Data([0x30, 0x0c, 0x31, 0x0a, 0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, 0x78])
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(copyMatching(passwordClass.base.with([kSecMatchIssuers: [name]])).status == errSecUnimplemented)
        }
    }

    @Test("kSecMatchPolicy that is not a policy is errSecParam", arguments: PasswordClass.allCases)
    func policyNotAPolicy(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with([kSecMatchPolicy: "policy"])).status == errSecParam)
        }
    }

    @Test("kSecMatchValidOnDate, kSecMatchTrustedOnly and kSecMatchEmailAddressIfPresent of the wrong type are errSecParam",
          arguments: PasswordClass.allCases)
    func certificateSearchKeyTypes(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with([kSecMatchValidOnDate: "today"])).status == errSecParam)
            #expect(copyMatching(passwordClass.base.with([kSecMatchTrustedOnly: 1])).status == errSecParam)
            #expect(copyMatching(passwordClass.base.with([kSecMatchEmailAddressIfPresent: 5])).status == errSecParam)
        }
    }

    @Test("Ignored search keys (item list, search list, subject contains, unknown m_ keys) do not change the result",
          arguments: PasswordClass.allCases)
    func ignoredSearchKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for key in [kSecMatchItemList, kSecMatchSearchList, kSecMatchSubjectContains, "m_Whatever" as CFString] {
                #expect(secret(of: passwordClass.base.with([key: ["x"]])) == Data("s3cret".utf8), "\(key)")
            }
        }
    }

    @Test("kSecUseItemList in a search is errSecParam", arguments: PasswordClass.allCases)
    func useItemListInSearch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(copyMatching(passwordClass.base.with([kSecUseItemList: [] as [Any]])).status == errSecParam)
        }
    }

    @Test("kSecUseAuthenticationUISkip is allowed in a search", arguments: PasswordClass.allCases)
    func skipAllowedInSearch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(secret(of: passwordClass.base.with([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])) == Data("s3cret".utf8))
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

    @Test("kSecUseAuthenticationUIFail on an item that needs no authentication reads it normally", arguments: PasswordClass.allCases)
    func failUIWithoutProtection(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(secret(of: passwordClass.base.with([kSecUseAuthenticationUI: kSecUseAuthenticationUIFail])) == Data("s3cret".utf8))
            #expect(secret(of: passwordClass.base.with([kSecUseNoAuthenticationUI: kCFBooleanTrue!])) == Data("s3cret".utf8))
        }
    }
}
