import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// SecItemUpdate: what it matches, what it may change, and the statuses of what it may not.
@Suite("Rules: SecItemUpdate")
struct RulesUpdateTests {
    @Test("An update changes every matching item", arguments: PasswordClass.allCases)
    func updatesAllMatches(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for name in ["a", "b", "c"] {
                #expect(add(passwordClass.base.with([kSecAttrAccount: name, kSecAttrLabel: "group"])) == errSecSuccess)
            }
            #expect(add(passwordClass.base.with([kSecAttrAccount: "d", kSecAttrLabel: "other"])) == errSecSuccess)
            let all = passwordClass.base.without(kSecAttrAccount)
            #expect(update(all.with([kSecAttrLabel: "group"]), item([kSecAttrComment: "changed"])) == errSecSuccess)
            #expect(matchCount(all.with([kSecAttrComment: "changed"])) == 3)
            #expect(matchCount(all.with([kSecAttrLabel: "other", kSecAttrComment: "changed"])) == 0)
        }
    }

    @Test("An update that matches nothing is errSecItemNotFound", arguments: PasswordClass.allCases)
    func noMatch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(update(passwordClass.base, item([kSecAttrLabel: "x"])) == errSecItemNotFound)
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base.with([kSecAttrAccount: "nobody"]), item([kSecAttrLabel: "x"])) == errSecItemNotFound)
        }
    }

    @Test("kSecValueData in attributesToUpdate replaces the secret and nothing else", arguments: PasswordClass.allCases)
    func replacesSecret(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrLabel: "keep"])) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecValueData: Data("new".utf8)])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == Data("new".utf8))
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["labl"] as? String == "keep")
        }
    }

    @Test("kSecValueData in attributesToUpdate that is not data is errSecParam", arguments: PasswordClass.allCases)
    func secretMustBeData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecValueData: "new"])) == errSecParam)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("A return key set to true in the update query is errSecParam; set to false it is allowed",
          arguments: PasswordClass.allCases)
    func returnKeysInQuery(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] {
                #expect(update(passwordClass.base.with([key: kCFBooleanTrue!]), item([kSecAttrLabel: "x"])) == errSecParam, "\(key)")
            }
            #expect(update(passwordClass.base.with([kSecReturnData: kCFBooleanFalse!]), item([kSecAttrLabel: "x"])) == errSecSuccess)
        }
    }

    @Test("Any search key in the update query, even kSecMatchLimitAll, is errSecParam", arguments: PasswordClass.allCases)
    func searchKeysInQuery(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let searchKeys: [(CFString, Any)] = [
                (kSecMatchLimit, kSecMatchLimitAll), (kSecMatchLimit, kSecMatchLimitOne), (kSecMatchLimit, 3),
                (kSecMatchCaseInsensitive, kCFBooleanTrue!), (kSecMatchItemList, ["x"]), ("m_Whatever" as CFString, "x"),
            ]
            for (key, value) in searchKeys {
                #expect(update(passwordClass.base.with([key: value]), item([kSecAttrLabel: "x"])) == errSecParam, "\(key)")
            }
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["labl"] == nil)
        }
    }

    @Test("kSecUseItemList in the update query is errSecParam", arguments: PasswordClass.allCases)
    func itemListInQuery(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base.with([kSecUseItemList: ["x"]]), item([kSecAttrLabel: "x"])) == errSecParam)
        }
    }

    @Test("Non-attribute keys in attributesToUpdate (class, return, search, use keys) are errSecNoSuchAttr",
          arguments: PasswordClass.allCases)
    func nonAttributeKeysInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let keys: [(CFString, Any)] = [
                (kSecClass, passwordClass.secClass), (kSecReturnData, kCFBooleanTrue!), (kSecMatchLimit, kSecMatchLimitAll),
                (kSecUseAuthenticationUI, kSecUseAuthenticationUIAllow), (kSecUseOperationPrompt, "why"),
                (kSecUseCredentialReference, Data([1])), ("zzzz" as CFString, "x"), ("f_callback" as CFString, "x"),
            ]
            for (key, value) in keys {
                #expect(update(passwordClass.base, item([key: value])) == errSecNoSuchAttr, "\(key)")
            }
        }
    }

    @Test("A non-string key in attributesToUpdate is errSecParam", arguments: PasswordClass.allCases)
    func nonStringKeyInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let changes = NSMutableDictionary()
            changes[NSNumber(value: 7)] = "x"
            #expect(SecItemUpdate(passwordClass.base as CFDictionary, changes) == errSecParam)
        }
    }

    @Test("A value of the wrong type in attributesToUpdate is errSecParam and changes nothing", arguments: PasswordClass.allCases)
    func wrongValueTypeInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrLabel: "ok", kSecAttrCreationDate: "not a date"])) == errSecParam)
            #expect(update(passwordClass.base, item([kSecAttrAccessible: "xx"])) == errSecParam)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["labl"] == nil)
        }
    }

    @Test("A primary-key-changing update onto another live item is errSecDuplicateItem and changes nothing",
          arguments: PasswordClass.allCases)
    func primaryKeyCollision(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.base.with([kSecAttrAccount: "alice", kSecValueData: Data("A".utf8)])) == errSecSuccess)
            #expect(add(passwordClass.base.with([kSecAttrAccount: "bob", kSecValueData: Data("B".utf8)])) == errSecSuccess)
            #expect(update(passwordClass.base.with([kSecAttrAccount: "alice"]),
                           item([kSecAttrAccount: "bob", kSecValueData: Data("C".utf8)])) == errSecDuplicateItem)
            #expect(secret(of: passwordClass.base.with([kSecAttrAccount: "alice"])) == Data("A".utf8))
            #expect(secret(of: passwordClass.base.with([kSecAttrAccount: "bob"])) == Data("B".utf8))
        }
    }

    @Test("A primary-key-changing update that collides for one of several matches rolls back all of them",
          arguments: PasswordClass.allCases)
    func collisionRollsBackEverything(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            // Both match label "L"; moving both to service/server "target" makes them collide with each other.
            let all = passwordClass.base.without(kSecAttrAccount)
            #expect(add(all.with([kSecAttrAccount: "one", kSecAttrLabel: "L"])) == errSecSuccess)
            #expect(add(all.with([kSecAttrAccount: "two", kSecAttrLabel: "L"])) == errSecSuccess)
            #expect(update(all.with([kSecAttrLabel: "L"]), item([kSecAttrAccount: "same", kSecAttrComment: "moved"])) == errSecDuplicateItem)
            #expect(matchCount(all.with([kSecAttrComment: "moved"])) == 0)
            #expect(matchCount(all.with([kSecAttrAccount: "one"])) == 1)
            #expect(matchCount(all.with([kSecAttrAccount: "two"])) == 1)
        }
    }

    @Test("A primary-key-changing update onto a free key moves the item", arguments: PasswordClass.allCases)
    func primaryKeyMove(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccount: "carol"])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(secret(of: passwordClass.base.with([kSecAttrAccount: "carol"])) == Data("s3cret".utf8))
            #expect(add(passwordClass.withSecret) == errSecSuccess)
        }
    }

    @Test("An update that sets an attribute to the value it has is not a collision with itself", arguments: PasswordClass.allCases)
    func sameKeyIsNotCollision(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccount: "alice"])) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccount: Data("alice".utf8)])) == errSecSuccess)
        }
    }

    @Test("kSecAttrMultiUser, kSecAttrPersistentReference and kSecUseDataProtectionKeychain in attributesToUpdate are ignored",
          arguments: PasswordClass.allCases)
    func ignoredChangeKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let reference = persistentReference(of: passwordClass.base)
            #expect(update(passwordClass.base, item([kSecAttrMultiUser: Data(repeating: 9, count: 16),
                                                     kSecAttrPersistentReference: Data(repeating: 9, count: 16),
                                                     kSecUseDataProtectionKeychain: kCFBooleanTrue!])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["musr"] as? Data == Data())
            #expect(persistentReference(of: passwordClass.base) == reference)
        }
    }

    @Test("Updated attribute values keep the type they are given", arguments: PasswordClass.allCases)
    func updatedValuesKeepType(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrLabel: "string"])) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrLabel: Data("data".utf8), kSecAttrIsInvisible: kCFBooleanTrue!])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["labl"] as? Data == Data("data".utf8))
            #expect((stored["invi"] as? NSNumber)?.intValue == 1)
        }
    }

    @Test("kSecValueData in the update query is ignored, not a filter", arguments: PasswordClass.allCases)
    func secretInQueryIgnored(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base.with([kSecValueData: Data("not it".utf8)]), item([kSecAttrLabel: "x"])) == errSecSuccess)
        }
    }

    @Test("kSecAttrAccessible in attributesToUpdate re-protects the item, which stays readable", arguments: PasswordClass.allCases)
    func accessibilityUpdate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrAccessible: kSecAttrAccessibleAlwaysThisDeviceOnly])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["pdmn"] as? String == "dku")
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("kSecAttrAccessControl in attributesToUpdate sets the accessibility from its protection", arguments: PasswordClass.allCases)
    func accessControlUpdate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil))
            #expect(update(passwordClass.base, item([kSecAttrAccessControl: control])) == errSecSuccess)
            let stored = try #require(attributes(of: passwordClass.base))
            #expect(stored["pdmn"] as? String == "cku")
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("kSecAttrAccessible and kSecAttrAccessControl together in attributesToUpdate are errSecParam",
          arguments: PasswordClass.allCases)
    func accessibleAndControlInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
            #expect(update(passwordClass.base, item([kSecAttrAccessControl: control, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecParam)
        }
    }

    @Test("kSecAttrAccessControl with kSecAttrSynchronizable true in attributesToUpdate is errSecParam",
          arguments: PasswordClass.allCases)
    func controlAndSyncInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let control = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil))
            #expect(update(passwordClass.base, item([kSecAttrAccessControl: control, kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecParam)
        }
    }
}
