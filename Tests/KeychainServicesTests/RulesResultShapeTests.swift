import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Result shapes: every combination of the `kSecReturn*` keys with one or all matches, including
/// the combinations where Apple returns nothing for an item or leaves keys out.
@Suite("Rules: result shapes")
struct RulesResultShapeTests {
    static func search(_ passwordClass: PasswordClass, _ returns: KeyValuePairs<CFString, Any>) -> (OSStatus, CFTypeRef?) {
        copyMatching(passwordClass.base.with(returns))
    }

    static func isPersistentReference(_ value: Any?, _ passwordClass: PasswordClass) -> Bool {
        guard let data = value as? Data else { return false }
        return data.count == 20 && data.prefix(4) == Data(passwordClass.rawValue.utf8)
    }

    @Test("kSecReturnData alone returns the secret as data", arguments: PasswordClass.allCases)
    func dataAlone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            #expect(result as? Data == Data("s3cret".utf8))
        }
    }

    @Test("kSecReturnAttributes alone returns a dictionary of attributes without the secret", arguments: PasswordClass.allCases)
    func attributesAlone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnAttributes: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary["acct"] as? String == "alice")
            #expect(dictionary["v_Data"] == nil)
            #expect(dictionary["v_PersistentRef"] == nil)
        }
    }

    @Test("kSecReturnPersistentRef alone returns the 20-byte persistent reference", arguments: PasswordClass.allCases)
    func persistentRefAlone(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnPersistentRef: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            #expect(Self.isPersistentReference(result, passwordClass))
        }
    }

    @Test("kSecReturnRef alone on a password succeeds with no result", arguments: PasswordClass.allCases)
    func refAloneIsNil(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnRef: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            #expect(result == nil)
        }
    }

    @Test("kSecReturnRef alone with kSecMatchLimitAll drops every password from the array", arguments: PasswordClass.allCases)
    func refAloneInArray(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnRef: kCFBooleanTrue!, kSecMatchLimit: kSecMatchLimitAll])
            #expect(status == errSecSuccess)
            #expect((result as? [Any])?.isEmpty == true)
        }
    }

    @Test("kSecReturnData with kSecReturnPersistentRef returns a dictionary that also holds every attribute",
          arguments: PasswordClass.allCases)
    func dataAndPersistentRef(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanTrue!, kSecReturnPersistentRef: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary["v_Data"] as? Data == Data("s3cret".utf8))
            #expect(Self.isPersistentReference(dictionary["v_PersistentRef"], passwordClass))
            #expect(dictionary["acct"] as? String == "alice")
            #expect(dictionary["agrp"] != nil)
            #expect(dictionary["cdat"] is Date)
        }
    }

    @Test("kSecReturnData with kSecReturnAttributes returns the attributes plus v_Data", arguments: PasswordClass.allCases)
    func dataAndAttributes(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (_, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!])
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary["v_Data"] as? Data == Data("s3cret".utf8))
            #expect(dictionary["acct"] as? String == "alice")
            #expect(dictionary["v_PersistentRef"] == nil)
        }
    }

    @Test("kSecReturnAttributes with kSecReturnPersistentRef returns the attributes plus v_PersistentRef, without v_Data",
          arguments: PasswordClass.allCases)
    func attributesAndPersistentRef(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (_, result) = Self.search(passwordClass, [kSecReturnAttributes: kCFBooleanTrue!, kSecReturnPersistentRef: kCFBooleanTrue!])
            let dictionary = try #require(result as? [String: Any])
            #expect(Self.isPersistentReference(dictionary["v_PersistentRef"], passwordClass))
            #expect(dictionary["v_Data"] == nil)
            #expect(dictionary["acct"] as? String == "alice")
        }
    }

    @Test("Data, attributes and persistent reference together give one dictionary with all three", arguments: PasswordClass.allCases)
    func allThree(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (_, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanTrue!, kSecReturnAttributes: kCFBooleanTrue!,
                                                          kSecReturnPersistentRef: kCFBooleanTrue!])
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary["v_Data"] as? Data == Data("s3cret".utf8))
            #expect(Self.isPersistentReference(dictionary["v_PersistentRef"], passwordClass))
            #expect(dictionary["acct"] as? String == "alice")
            #expect(dictionary["class"] == nil)
        }
    }

    @Test("kSecReturnRef with another return key gives every attribute plus class, and no v_Ref for a password",
          arguments: PasswordClass.allCases)
    func refWithOthers(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (_, withRef) = Self.search(passwordClass, [kSecReturnRef: kCFBooleanTrue!, kSecReturnPersistentRef: kCFBooleanTrue!])
            let dictionary = try #require(withRef as? [String: Any])
            #expect(dictionary["class"] as? String == passwordClass.rawValue)
            #expect(dictionary["acct"] as? String == "alice")
            #expect(Self.isPersistentReference(dictionary["v_PersistentRef"], passwordClass))
            #expect(dictionary["v_Data"] == nil)
            #expect(dictionary["v_Ref"] == nil)

            let (_, withData) = Self.search(passwordClass, [kSecReturnRef: kCFBooleanTrue!, kSecReturnData: kCFBooleanTrue!])
            let second = try #require(withData as? [String: Any])
            #expect(second["v_Data"] as? Data == Data("s3cret".utf8))
            #expect(second["class"] as? String == passwordClass.rawValue)
        }
    }

    @Test("A search's attribute dictionary has musr, tomb, sync, sha1 and accc, and no UUID, persistref or class",
          arguments: PasswordClass.allCases)
    func searchAttributeKeySet(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let dictionary = try #require(attributes(of: passwordClass.base))
            #expect(dictionary["musr"] as? Data == Data())
            #expect((dictionary["tomb"] as? NSNumber)?.intValue == 0)
            #expect((dictionary["sync"] as? NSNumber)?.intValue == 0)
            #expect((dictionary["sha1"] as? Data)?.count == 20)
            #expect(dictionary["accc"] is SecAccessControl)
            for absent in ["UUID", "persistref", "class", "v_Data", "v_PersistentRef"] {
                #expect(dictionary[absent] == nil, "\(absent)")
            }
            for present in ["agrp", "pdmn", "cdat", "mdat", "acct"] {
                #expect(dictionary[present] != nil, "\(present)")
            }
        }
    }

    @Test("An add's attribute dictionary has no musr, tomb, UUID or persistref, and accc only when one was given",
          arguments: PasswordClass.allCases)
    func addAttributeKeySet(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let (status, result) = addReturning(passwordClass.withSecret.with([kSecReturnAttributes: kCFBooleanTrue!]))
            #expect(status == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            for absent in ["musr", "tomb", "UUID", "persistref", "accc", "v_Data", "class"] {
                #expect(dictionary[absent] == nil, "\(absent)")
            }
            for present in ["acct", "agrp", "pdmn", "sync", "cdat", "mdat", "sha1"] {
                #expect(dictionary[present] != nil, "\(present)")
            }

            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
            let (status2, result2) = addReturning(passwordClass.base.with([kSecAttrAccount: "other", kSecAttrAccessControl: control,
                                                                          kSecReturnAttributes: kCFBooleanTrue!]))
            #expect(status2 == errSecSuccess)
            let withControl = try #require(result2 as? [String: Any])
            #expect(withControl["accc"] is SecAccessControl)
            #expect(withControl["pdmn"] as? String == "ck")
        }
    }

    @Test("SecItemAdd honours return keys: data, persistent reference, and attributes with data",
          arguments: PasswordClass.allCases)
    func addReturnsValues(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let (s1, data) = addReturning(passwordClass.withSecret.with([kSecReturnData: kCFBooleanTrue!]))
            #expect(s1 == errSecSuccess)
            #expect(data as? Data == Data("s3cret".utf8))

            let second = passwordClass.withSecret.with([kSecAttrAccount: "second"])
            let (s2, reference) = addReturning(second.with([kSecReturnPersistentRef: kCFBooleanTrue!]))
            #expect(s2 == errSecSuccess)
            #expect(Self.isPersistentReference(reference, passwordClass))
            #expect(reference as? Data == persistentReference(of: passwordClass.base.with([kSecAttrAccount: "second"])))

            let (s3, both) = addReturning(passwordClass.withSecret.with([kSecAttrAccount: "third", kSecReturnData: kCFBooleanTrue!,
                                                                         kSecReturnAttributes: kCFBooleanTrue!]))
            #expect(s3 == errSecSuccess)
            let dictionary = try #require(both as? [String: Any])
            #expect(dictionary["v_Data"] as? Data == Data("s3cret".utf8))
            #expect(dictionary["acct"] as? String == "third")
        }
    }

    @Test("SecItemAdd without return keys leaves the result nil", arguments: PasswordClass.allCases)
    func addWithoutReturnKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            var result: CFTypeRef?
            #expect(SecItemAdd(passwordClass.withSecret as CFDictionary, &result) == errSecSuccess)
            #expect(result == nil)
        }
    }

    @Test("kSecReturnData alone on an item without data: a search succeeds with no result; SecItemAdd returns empty data",
          arguments: PasswordClass.allCases)
    func dataOnItemWithoutData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let (addStatus, added) = addReturning(passwordClass.base.with([kSecReturnData: kCFBooleanTrue!]))
            #expect(addStatus == errSecSuccess)
            #expect(added as? Data == Data())

            let (status, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            #expect(result == nil)
        }
    }

    @Test("kSecReturnData with kSecMatchLimitAll drops items without data from the array", arguments: PasswordClass.allCases)
    func itemsWithoutDataDropped(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "no-data"])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: "data", kSecValueData: Data("x".utf8)])) == errSecSuccess)
            let (status, result) = copyMatching(passwordClass.base.without(kSecAttrAccount).with([
                kSecReturnData: kCFBooleanTrue!, kSecMatchLimit: kSecMatchLimitAll]))
            #expect(status == errSecSuccess)
            #expect((result as? [Data]) == [Data("x".utf8)])
        }
    }

    @Test("Return keys must be booleans: the number 1 or a string is errSecParam", arguments: PasswordClass.allCases)
    func returnKeysMustBeBooleans(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] {
                #expect(copyMatching(passwordClass.base.with([key: NSNumber(value: 1)])).status == errSecParam, "\(key)")
                #expect(copyMatching(passwordClass.base.with([key: "true"])).status == errSecParam, "\(key)")
                #expect(add(passwordClass.base.with([kSecAttrAccount: "x", key: 1])) == errSecParam, "\(key)")
            }
        }
    }

    @Test("A return key set to false asks for nothing", arguments: PasswordClass.allCases)
    func falseReturnKey(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (status, result) = Self.search(passwordClass, [kSecReturnData: kCFBooleanFalse!, kSecReturnAttributes: kCFBooleanTrue!])
            #expect(status == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary["v_Data"] == nil)
        }
    }

    @Test("Results can be read with CFString keys as well as String keys", arguments: PasswordClass.allCases)
    func resultKeysBridge(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let (_, result) = Self.search(passwordClass, [kSecReturnAttributes: kCFBooleanTrue!, kSecReturnData: kCFBooleanTrue!])
            let dictionary = try #require(result as? NSDictionary)
            #expect(dictionary[kSecAttrAccount] as? String == "alice")
            #expect(dictionary[kSecValueData] as? Data == Data("s3cret".utf8))
        }
    }
}
