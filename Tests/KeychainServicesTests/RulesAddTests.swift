import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// SecItemAdd: Apple's defaults, the keys an add accepts and rejects, and what it returns.
@Suite("Rules: SecItemAdd")
struct RulesAddTests {
    @Test("An add stores the item with Apple's defaults: first access group, WhenUnlocked, not synchronizable",
          arguments: PasswordClass.allCases)
    func defaults(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["first.group", "second.group"]))
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["agrp"] as? String == "first.group")
            #expect(stored["pdmn"] as? String == "ak")
            #expect((stored["sync"] as? NSNumber)?.intValue == 0)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("An add with any search key returns success but stores nothing",
          arguments: PasswordClass.allCases, ["m_Limit", "m_CaseInsensitive", "m_ItemList", "m_HostOrSubdomainOfHost", "m_Whatever"])
    func searchKeyMakesAddANoOp(_ passwordClass: PasswordClass, _ key: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            let value: Any = key == "m_Limit" ? kSecMatchLimitOne : (key == "m_HostOrSubdomainOfHost" ? "example.com" : kCFBooleanTrue!)
            var result: CFTypeRef?
            let query = passwordClass.withSecret.with([key as CFString: value, kSecReturnAttributes: kCFBooleanTrue!])
            #expect(SecItemAdd(query as CFDictionary, &result) == errSecSuccess)
            #expect(result == nil)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(add(passwordClass.withSecret) == errSecSuccess)
        }
    }

    @Test("An add with kSecUseItemList returns success but stores nothing", arguments: PasswordClass.allCases)
    func itemListMakesAddANoOp(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecUseItemList: ["x"]])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("An add without kSecValueData stores an item without a secret", arguments: PasswordClass.allCases)
    func addWithoutSecret(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == nil)
        }
    }

    @Test("An accessibility that is not one of the constants is errSecParam", arguments: PasswordClass.allCases)
    func invalidAccessibility(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for pdmn in ["zz", "", "AK", "akp"] {
                #expect(add(passwordClass.withSecret.with([kSecAttrAccessible: pdmn])) == errSecParam, "\(pdmn)")
            }
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("kSecAttrAccessibleUntilReboot (f) is refused when an item is written: errSecParam", arguments: PasswordClass.allCases)
    func untilRebootRefused(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessible: kSecAttrAccessibleUntilReboot])) == errSecParam)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("kSecAttrAccessible together with kSecAttrAccessControl is errSecParam, even when they agree",
          arguments: PasswordClass.allCases)
    func accessibleWithAccessControl(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil))
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessControl: control, kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked])) == errSecParam)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("Any access control object with kSecAttrSynchronizable true is errSecParam, even with no flags",
          arguments: PasswordClass.allCases)
    func accessControlWithSync(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessControl: control, kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecParam)
            #expect(exists(passwordClass.base.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])) == errSecItemNotFound)
        }
    }

    @Test("An access control object without constraints sets the item's accessibility from its protection",
          arguments: PasswordClass.allCases)
    func accessControlSetsAccessibility(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAlwaysThisDeviceOnly, [], nil))
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessControl: control])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["pdmn"] as? String == "dku")
            #expect(stored["accc"] is SecAccessControl)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("kSecAttrAccessControl that is not an access control object is errSecParam", arguments: PasswordClass.allCases)
    func accessControlWrongType(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessControl: "ak"])) == errSecParam)
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessControl: Data([1])])) == errSecParam)
        }
    }

    @Test("WhenPasscodeSetThisDeviceOnly cannot be added to a keychain without a password: errSecNotAvailable",
          arguments: PasswordClass.allCases)
    func passcodeRequiredWithoutPassword(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrAccessible: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])) == errSecNotAvailable)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("kSecUseAuthenticationUISkip in an add is errSecParam", arguments: PasswordClass.allCases)
    func skipRefused(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])) == errSecParam)
            #expect(add(passwordClass.withSecret.with([kSecUseAuthenticationUI: kSecUseAuthenticationUIAllow])) == errSecSuccess)
        }
    }

    @Test("A ThisDeviceOnly accessibility with kSecAttrSynchronizable true is accepted", arguments: PasswordClass.allCases)
    func thisDeviceOnlyMaySync(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let synced = passwordClass.withSecret.with([kSecAttrSynchronizable: kCFBooleanTrue!,
                                                        kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly])
            #expect(add(synced) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base.with([kSecAttrSynchronizable: kCFBooleanTrue!])))
            #expect(stored["pdmn"] as? String == "cku")
        }
    }

    @Test("Items added to the push service's group (com.apple.apsd) default to AlwaysThisDeviceOnly", arguments: PasswordClass.allCases)
    func pushServiceGroupDefault(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["com.apple.apsd"]))
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["pdmn"] as? String == "dku")
        }
    }
}
