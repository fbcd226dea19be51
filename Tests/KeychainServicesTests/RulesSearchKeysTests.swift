import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Search-only (m_) and use (u_)
/// keys in SecItemCopyMatching, and kSecValueData in a search.
@Suite("Rules: search and use keys in SecItemCopyMatching")
struct RulesSearchKeysTests {
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
