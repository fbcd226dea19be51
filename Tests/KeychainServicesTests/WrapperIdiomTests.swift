import Foundation
import Testing
import KeychainServices
import KeychainTestSupport

// On Apple platforms the kSec constants are CFStrings that bridge to Swift strings, so a constant
// and its string value are the same key wherever Swift hashes keys: in [AnyHashable: Any], in
// Set<AnyHashable>, in [String: AnyHashable] values. Keychain wrapper libraries (KeychainAccess,
// SwiftKeychainWrapper, Valet and hand-written helpers) build and read dictionaries every one of
// these ways, and mix them. Each test below is one of their idioms, run through the real calls.

@Suite("Wrapper idioms: constants as dictionary keys")
struct WrapperIdiomTests {
    @Test("A constant and its string are one AnyHashable, with one hash")
    func constantEqualsItsString() {
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(kSecAttrAccount).hashValue == AnyHashable("acct").hashValue)
        #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable(kSecClassGenericPassword as String))
        #expect(AnyHashable(kSecAttrAccount) != AnyHashable(kSecAttrService))
        let keys: Set<AnyHashable> = [AnyHashable(kSecAttrAccount), AnyHashable("acct"), AnyHashable(kSecAttrAccount as String)]
        #expect(keys.count == 1)
    }

    @Test("Constants are still CFStrings and still convert to String")
    func stillCFStrings() {
        let key: CFString = kSecAttrAccount
        #expect(key as String == "acct")
        #expect(String(kSecClass) == "class")
        #expect(CFGetTypeID(kSecAttrAccount) == CFStringGetTypeID())
        #expect(kSecAttrAccount == ("acct" as CFString))
        #expect(CFEqual(kSecAttrAccount, "acct" as CFString))
    }

    @Test("[AnyHashable: Any] keeps one entry whether a key is written as a constant or as its string")
    func mixedKeysAreOneEntry() {
        var query: [AnyHashable: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "first"]
        query[kSecAttrAccount as String] = "second"
        #expect(query.count == 2)
        #expect(query[kSecAttrAccount] as? String == "second")
        #expect(query["acct"] as? String == "second")
        query["svce"] = "service"
        #expect(query[kSecAttrService] as? String == "service")
    }

    @Test("A query built as [AnyHashable: Any] from constants adds and finds; the result reads by constant or string")
    func anyHashableQueryAndResult() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let add: [AnyHashable: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "svc",
                                           kSecAttrAccount: "a", kSecValueData: Data("s".utf8)]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [AnyHashable: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "svc",
                                             kSecReturnAttributes: true, kSecReturnData: true]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let dict = try #require(result as? [AnyHashable: Any])
            #expect(dict[kSecAttrAccount] as? String == "a")
            #expect(dict["acct"] as? String == "a")
            #expect(dict[kSecValueData] as? Data == Data("s".utf8))
            #expect(dict.keys.contains(AnyHashable(kSecAttrService)))
        }
    }

    @Test("KeychainAccess style: [String: Any] filled with String(constant) keys; attributes read the same way")
    func stringKeyedQuery() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            var query = [String: Any]()
            query[String(kSecClass)] = String(kSecClassGenericPassword)
            query[String(kSecAttrService)] = "svc"
            query[String(kSecAttrAccount)] = "a"
            query[String(kSecAttrAccessible)] = String(kSecAttrAccessibleAfterFirstUnlock)
            query[String(kSecValueData)] = Data("s".utf8)
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            query[String(kSecValueData)] = nil
            query[String(kSecReturnAttributes)] = kCFBooleanTrue
            query[String(kSecMatchLimit)] = kSecMatchLimitOne
            var result: AnyObject?
            let status = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, $0) }
            #expect(status == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[String(kSecAttrAccount)] as? String == "a")
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlock as String)
        }
    }

    @Test("SwiftKeychainWrapper style: several results as [[AnyHashable: Any]], read with the constants")
    func arrayOfAnyHashableResults() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            for account in ["a", "b"] {
                let add = [kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: account,
                           kSecValueData: Data(account.utf8)] as CFDictionary
                #expect(SecItemAdd(add, nil) == errSecSuccess)
            }
            var result: CFTypeRef?
            let query = [kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecReturnAttributes: kCFBooleanTrue!,
                         kSecMatchLimit: kSecMatchLimitAll] as CFDictionary
            #expect(SecItemCopyMatching(query, &result) == errSecSuccess)
            let items = try #require(result as? [[AnyHashable: Any]])
            #expect(Set(items.compactMap { $0[kSecAttrAccount] as? String }) == ["a", "b"])
            #expect(Set(items.compactMap { $0["acct"] as? String }) == ["a", "b"])
        }
    }

    @Test("[CFString: Any] queries and results, and NSDictionary lookups by constant or string")
    func cfStringKeyedAndNSDictionary() throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let add: [CFString: Any] = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com",
                                        kSecAttrAccount: "a", kSecValueData: Data("s".utf8)]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query: [CFString: Any] = [kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com",
                                          kSecReturnAttributes: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let typed = try #require(result as? [CFString: Any])
            #expect(typed[kSecAttrAccount] as? String == "a")
            let dictionary = try #require(result as? NSDictionary)
            #expect(dictionary[kSecAttrAccount] as? String == "a")
            #expect(dictionary.object(forKey: "acct") as? String == "a")
            #expect(dictionary.object(forKey: kSecAttrServer) as? String == "example.com")
        }
    }

    @Test("Valet style: [String: AnyHashable] with constants as values compares them as strings")
    func anyHashableValues() throws {
        let keychain = try TestKeychain()
        keychain.run {
            var query: [String: AnyHashable] = [kSecClass as String: kSecClassGenericPassword,
                                                kSecAttrService as String: "svc",
                                                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
            #expect(query[kSecAttrAccessible as String] == AnyHashable("ak"))
            #expect(query[kSecClass as String] == AnyHashable(kSecClassGenericPassword as String))
            query[kSecAttrAccount as String] = "a"
            query[kSecValueData as String] = Data("s".utf8)
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            query[kSecValueData as String] = nil
            query[kSecReturnData as String] = true
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("s".utf8))
        }
    }
}
