import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// How each key of a dictionary is classified (attribute, class, match, return, use, value) and
/// the order in which a dictionary is checked, for every call.
@Suite("Rules: how a dictionary's keys are read")
struct RulesParsingTests {
    @Test("A four-character key that is not an attribute of the class is errSecNoSuchAttr in every call",
          arguments: everyClassAndCall)
    func unknownFourCharacterKey(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(passwordClass.base.with(["zzzz": "x"])) == errSecNoSuchAttr)
        }
    }

    @Test("An attribute of another class (kSecAttrApplicationTag) on a password is errSecNoSuchAttr",
          arguments: everyClassAndCall)
    func attributeOfAnotherClass(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(passwordClass.base.with([kSecAttrApplicationTag: Data("tag".utf8)])) == errSecNoSuchAttr)
        }
    }

    @Test("A service on an internet password and a server on a generic password are errSecNoSuchAttr")
    func attributesOfTheOtherPasswordClass() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.inet.base.with([kSecAttrService: "svc"])) == errSecNoSuchAttr)
            #expect(add(PasswordClass.genp.base.with([kSecAttrServer: "example.com"])) == errSecNoSuchAttr)
            #expect(add(PasswordClass.genp.base.with([kSecAttrProtocol: kSecAttrProtocolHTTPS])) == errSecNoSuchAttr)
            #expect(add(PasswordClass.inet.base.with([kSecAttrGeneric: Data([1])])) == errSecNoSuchAttr)
        }
    }

    @Test("Unknown return, use, value and class keys are errSecParam",
          arguments: PasswordClass.allCases, ["r_Unknown", "u_Unknown", "v_Unknown", "classes", "cl"])
    func unknownPrefixedKeys(_ passwordClass: PasswordClass, _ key: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for call in Call.allCases {
                #expect(call.status(passwordClass.base.with([key as CFString: kCFBooleanTrue!])) == errSecParam,
                        "\(call) with \(key)")
            }
        }
    }

    @Test("A key with no known prefix, a one-character key and an empty key are errSecParam",
          arguments: PasswordClass.allCases, ["xylophone", "z", "", "acct "])
    func keysOfNoKnownShape(_ passwordClass: PasswordClass, _ key: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([key as CFString: "x"])) == errSecParam)
            #expect(copyMatching(passwordClass.base.with([key as CFString: "x"])).status == errSecParam)
        }
    }

    @Test("Keys starting with f are ignored", arguments: PasswordClass.allCases)
    func callbackKeysIgnored(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with(["f_callback": "anything"])) == errSecSuccess)
            #expect(exists(passwordClass.base.with(["f_other": 42])) == errSecSuccess)
        }
    }

    @Test("A non-string key is errSecParam; a number key is looked up as an attribute and is errSecNoSuchAttr",
          arguments: PasswordClass.allCases)
    func nonStringKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let withData = NSMutableDictionary(dictionary: passwordClass.base)
            withData[NSData(data: Data([1, 2]))] = "x"
            #expect(SecItemAdd(withData, nil) == errSecParam)
            #expect(SecItemCopyMatching(withData, nil) == errSecParam)

            let withNumber = NSMutableDictionary(dictionary: passwordClass.base)
            withNumber[NSNumber(value: 1234)] = "x"
            #expect(SecItemAdd(withNumber, nil) == errSecNoSuchAttr)
            #expect(SecItemCopyMatching(withNumber, nil) == errSecNoSuchAttr)
        }
    }

    @Test("kSecUseDataProtectionKeychain (nleg) is a silent no-op in every call", arguments: PasswordClass.allCases)
    func dataProtectionKeychainIsNoOp(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let nleg = item([kSecUseDataProtectionKeychain: kCFBooleanTrue!])
            #expect(add(passwordClass.withSecret.merging(nleg) { $1 }) == errSecSuccess)
            #expect(exists(passwordClass.base.merging(nleg) { $1 }) == errSecSuccess)
            #expect(update(passwordClass.base.merging(nleg) { $1 }, nleg) == errSecSuccess)
            #expect(delete(passwordClass.base.merging(nleg) { $1 }) == errSecSuccess)
        }
    }

    @Test("kSecAttrNoLegacy set to false is as much a no-op as true", arguments: PasswordClass.allCases)
    func noLegacyFalseIsNoOp(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrNoLegacy: kCFBooleanFalse!])) == errSecSuccess)
            #expect(exists(passwordClass.base.with([kSecAttrNoLegacy: kCFBooleanFalse!])) == errSecSuccess)
        }
    }

    /// Apple sizes a query as the class's schema attributes plus the dictionary's keys that are
    /// not schema attributes, and refuses more than 128 (`query_create`). genp has 38 schema
    /// attributes, inet 48, so 90 and 80 non-attribute keys fit and one more does not.
    @Test("A dictionary with more non-attribute keys than Apple's 128-key query budget allows is errSecParam",
          arguments: [(PasswordClass.genp, 90), (PasswordClass.inet, 80)])
    func queryKeyBudget(_ passwordClass: PasswordClass, _ allowedNonAttributeKeys: Int) throws {
        let keychain = try TestKeychain()
        keychain.run {
            // `class` is one non-attribute key; the rest are ignored `f` keys.
            var fits = passwordClass.withSecret
            for i in 0..<(allowedNonAttributeKeys - 1) { fits["f_key\(i)"] = i }
            #expect(add(fits) == errSecSuccess)
            var tooMany = fits
            tooMany["f_one_more"] = 1
            #expect(copyMatching(tooMany).status == errSecParam)
            #expect(add(tooMany) == errSecParam)
            #expect(delete(tooMany) == errSecParam)
            #expect(exists(fits) == errSecSuccess)
        }
    }

    @Test("Attributes of the class do not count against the query key budget", arguments: PasswordClass.allCases)
    func attributesDoNotCountAgainstBudget(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let full = passwordClass.withSecret.with([
                kSecAttrLabel: "label", kSecAttrComment: "comment", kSecAttrDescription: "description",
                kSecAttrCreator: 1, kSecAttrType: 2, kSecAttrIsInvisible: kCFBooleanTrue!,
                kSecAttrIsNegative: kCFBooleanFalse!, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
            ])
            var query = full
            for i in 0..<70 { query["f_key\(i)"] = i }
            #expect(add(query) == errSecSuccess)
        }
    }

    @Test("The first error found stops parsing: nothing is stored by a dictionary with a bad key",
          arguments: PasswordClass.allCases)
    func badKeyStoresNothing(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with(["zzzz": "x"])) == errSecNoSuchAttr)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }
}
