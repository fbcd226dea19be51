import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Persistent references: what they name, and how they combine with other keys in a query.
@Suite("Rules: persistent references")
struct RulesPersistentRefTests {
    /// Adds the class's typical item and returns its persistent reference.
    static func addAndReference(_ passwordClass: PasswordClass, _ extra: KeyValuePairs<CFString, Any> = [:]) throws -> Data {
        let (status, result) = addReturning(passwordClass.withSecret.with(extra).with([kSecReturnPersistentRef: kCFBooleanTrue!]))
        #expect(status == errSecSuccess)
        return try #require(result as? Data)
    }

    @Test("A persistent reference is 20 bytes: the four-letter class code, then a 16-byte identity",
          arguments: PasswordClass.allCases)
    func format(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            #expect(reference.count == 20)
            #expect(String(decoding: reference.prefix(4), as: UTF8.self) == passwordClass.rawValue)
            let other = try Self.addAndReference(passwordClass, [kSecAttrAccount: "other"])
            #expect(other.prefix(4) == reference.prefix(4))
            #expect(other.suffix(16) != reference.suffix(16))
        }
    }

    @Test("A persistent reference finds its item with or without kSecClass", arguments: PasswordClass.allCases)
    func lookup(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            _ = try Self.addAndReference(passwordClass, [kSecAttrAccount: "decoy"])
            let reference = try Self.addAndReference(passwordClass)
            for query in [item([kSecValuePersistentRef: reference]),
                          item([kSecClass: passwordClass.secClass, kSecValuePersistentRef: reference])] {
                let (status, result) = copyMatching(query.with([kSecReturnAttributes: kCFBooleanTrue!]))
                #expect(status == errSecSuccess)
                #expect((result as? [String: Any])?["acct"] as? String == "alice")
            }
        }
    }

    @Test("A persistent reference survives updates, including ones that change the primary key",
          arguments: PasswordClass.allCases)
    func stableAcrossUpdates(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            #expect(update(passwordClass.base, item([kSecValueData: Data("new".utf8), kSecAttrLabel: "l"])) == errSecSuccess)
            #expect(persistentReference(of: passwordClass.base) == reference)
            #expect(update(passwordClass.base, item([kSecAttrAccount: "renamed"])) == errSecSuccess)
            #expect(persistentReference(of: passwordClass.base.with([kSecAttrAccount: "renamed"])) == reference)
            let (status, result) = copyMatching(item([kSecValuePersistentRef: reference, kSecReturnData: kCFBooleanTrue!]))
            #expect(status == errSecSuccess)
            #expect(result as? Data == Data("new".utf8))
        }
    }

    @Test("A persistent reference changes nothing about its item when it is read", arguments: PasswordClass.allCases)
    func referenceStableAcrossReads(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            #expect(persistentReference(of: passwordClass.base) == reference)
            #expect(persistentReference(of: passwordClass.base) == reference)
        }
    }

    @Test("A search by persistent reference with any other attribute is errSecParam", arguments: PasswordClass.allCases)
    func searchWithExtraAttributes(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            let byReference = item([kSecValuePersistentRef: reference])
            #expect(copyMatching(byReference.with([kSecAttrAccount: "alice"])).status == errSecParam)
            #expect(copyMatching(byReference.with([kSecAttrAccessGroup: ClientIdentity.sharedGroup])).status == errSecParam)
            #expect(copyMatching(byReference.with([kSecAttrSynchronizable: kCFBooleanTrue!])).status == errSecParam)
            #expect(copyMatching(byReference.with([kSecAttrSynchronizable: kSecAttrSynchronizableAny])).status == errSecParam)
        }
    }

    @Test("A search by persistent reference accepts return, limit and use keys", arguments: PasswordClass.allCases)
    func searchWithNonAttributeKeys(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            let (status, result) = copyMatching(item([kSecValuePersistentRef: reference, kSecReturnData: kCFBooleanTrue!,
                                                      kSecMatchLimit: kSecMatchLimitAll,
                                                      kSecUseAuthenticationUI: kSecUseAuthenticationUIAllow]))
            #expect(status == errSecSuccess)
            #expect((result as? [Data]) == [Data("s3cret".utf8)])
        }
    }

    @Test("An update by persistent reference works with and without kSecClass", arguments: PasswordClass.allCases)
    func updateByReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            #expect(update(item([kSecValuePersistentRef: reference]), item([kSecValueData: Data("one".utf8)])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == Data("one".utf8))
            #expect(update(item([kSecClass: passwordClass.secClass, kSecValuePersistentRef: reference]),
                           item([kSecValueData: Data("two".utf8)])) == errSecSuccess)
            #expect(secret(of: passwordClass.base) == Data("two".utf8))
        }
    }

    @Test("An update or delete by persistent reference may add filters; a filter that does not match finds nothing",
          arguments: PasswordClass.allCases)
    func extraFiltersOnWrite(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            let byReference = item([kSecValuePersistentRef: reference])
            #expect(update(byReference.with([kSecAttrAccount: "alice"]), item([kSecAttrLabel: "l"])) == errSecSuccess)
            #expect(update(byReference.with([kSecAttrAccount: "bob"]), item([kSecAttrLabel: "m"])) == errSecItemNotFound)
            #expect(delete(byReference.with([kSecAttrAccount: "bob"])) == errSecItemNotFound)
            #expect(delete(byReference.with([kSecAttrAccount: "alice"])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    @Test("A delete by persistent reference removes only that item, with or without kSecClass", arguments: PasswordClass.allCases)
    func deleteByReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let first = try Self.addAndReference(passwordClass)
            let second = try Self.addAndReference(passwordClass, [kSecAttrAccount: "bob"])
            #expect(delete(item([kSecValuePersistentRef: first])) == errSecSuccess)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
            #expect(exists(passwordClass.base.with([kSecAttrAccount: "bob"])) == errSecSuccess)
            #expect(delete(item([kSecClass: passwordClass.secClass, kSecValuePersistentRef: second])) == errSecSuccess)
            #expect(delete(item([kSecValuePersistentRef: second])) == errSecItemNotFound)
            #expect(exists(item([kSecValuePersistentRef: first])) == errSecItemNotFound)
        }
    }

    @Test("Malformed persistent references are errSecParam: wrong length, unknown class prefix, not data",
          arguments: PasswordClass.allCases)
    func malformedReferences(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            var unknownPrefix = Data("zzzz".utf8)
            unknownPrefix.append(reference.suffix(16))
            let bad: [Any] = [reference.prefix(19), reference + Data([0]), Data(), unknownPrefix, "genp0123456789abcdef", 5]
            for value in bad {
                let query = item([kSecValuePersistentRef: value])
                #expect(copyMatching(query).status == errSecParam, "\(value)")
                #expect(delete(query.with([kSecClass: passwordClass.secClass])) == errSecParam, "\(value)")
                #expect(update(query.with([kSecClass: passwordClass.secClass]), item([kSecAttrLabel: "x"])) == errSecParam, "\(value)")
            }
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("A well-formed persistent reference that names no item is errSecItemNotFound", arguments: PasswordClass.allCases)
    func unknownReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            var reference = Data(passwordClass.rawValue.utf8)
            reference.append(Data(repeating: 0xab, count: 16))
            #expect(copyMatching(item([kSecValuePersistentRef: reference])).status == errSecItemNotFound)
            #expect(update(item([kSecValuePersistentRef: reference]), item([kSecAttrLabel: "x"])) == errSecItemNotFound)
            #expect(delete(item([kSecValuePersistentRef: reference])) == errSecItemNotFound)
        }
    }

    @Test("A legacy 12-byte (class and row id) reference is accepted, but not with extra filters in an update or delete",
          arguments: PasswordClass.allCases)
    func legacyRowidReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            var reference = Data(passwordClass.rawValue.utf8)
            reference.append(Data([0, 0, 0, 0, 0, 0, 0, 99]))
            #expect(copyMatching(item([kSecValuePersistentRef: reference])).status != errSecParam)
            #expect(update(item([kSecValuePersistentRef: reference, kSecAttrAccount: "alice"]), item([kSecAttrLabel: "x"])) == errSecParam)
            #expect(delete(item([kSecValuePersistentRef: reference, kSecAttrAccount: "alice"])) == errSecParam)
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("kSecValuePersistentRef in an add: a legacy row-id reference is errSecParam; a 20-byte one is ignored",
          arguments: PasswordClass.allCases)
    func referenceInAdd(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            var legacy = Data(passwordClass.rawValue.utf8)
            legacy.append(Data([0, 0, 0, 0, 0, 0, 0, 1]))
            #expect(add(passwordClass.withSecret.with([kSecValuePersistentRef: legacy])) == errSecParam)

            var chosen = Data(passwordClass.rawValue.utf8)
            chosen.append(Data(repeating: 0x42, count: 16))
            #expect(add(passwordClass.withSecret.with([kSecValuePersistentRef: chosen])) == errSecSuccess)
            let actual = try #require(persistentReference(of: passwordClass.base))
            #expect(actual != chosen)
        }
    }

    @Test("kSecValuePersistentRef in attributesToUpdate is errSecNoSuchAttr; kSecAttrPersistentReference there is ignored",
          arguments: PasswordClass.allCases)
    func referenceInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            var other = Data(passwordClass.rawValue.utf8)
            other.append(Data(repeating: 1, count: 16))
            #expect(update(passwordClass.base, item([kSecValuePersistentRef: other])) == errSecNoSuchAttr)
            #expect(update(passwordClass.base, item([kSecAttrPersistentReference: other.suffix(16)])) == errSecSuccess)
            #expect(persistentReference(of: passwordClass.base) == reference)
        }
    }

    @Test("kSecAttrPersistentReference as a search key is errSecParam (it is neither an attribute nor a known prefix)",
          arguments: PasswordClass.allCases)
    func persistentReferenceAttributeInSearch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(copyMatching(passwordClass.base.with([kSecAttrPersistentReference: Data(count: 16)])).status == errSecParam)
        }
    }

    @Test("A persistent reference of another access group finds nothing", arguments: PasswordClass.allCases)
    func referenceRespectsAccessGroups(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain(identity: ClientIdentity(accessGroups: ["group.one"]))
        try keychain.run {
            let reference = try Self.addAndReference(passwordClass)
            keychain.run(as: ClientIdentity(accessGroups: ["group.two"])) {
                #expect(copyMatching(item([kSecValuePersistentRef: reference])).status == errSecItemNotFound)
                #expect(delete(item([kSecValuePersistentRef: reference])) == errSecItemNotFound)
            }
            #expect(exists(item([kSecValuePersistentRef: reference])) == errSecSuccess)
        }
    }
}
