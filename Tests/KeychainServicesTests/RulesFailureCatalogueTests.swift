import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Failures that no topic suite covers: odd keys, values of the wrong type and calls Apple rejects,
/// each with the status Apple returns.
@Suite("Rules: failure catalogue")
struct RulesFailureCatalogueTests {
    @Test("The internal app-clip attribute (clip) is errSecParam in every call and in attributesToUpdate",
          arguments: everyClassAndCall)
    func appClipAttribute(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(call.status(passwordClass.base.with(["clip": 1])) == errSecParam)
            #expect(update(passwordClass.base, ["clip": 1]) == errSecParam)
        }
    }

    @Test("A sharing group with kSecAttrSynchronizable true is errSecParam", arguments: PasswordClass.allCases)
    func sharingGroupWithSync(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([kSecAttrSharingGroup: "group", kSecAttrSynchronizable: kCFBooleanTrue!])) == errSecParam)
        }
    }

    @Test("A sharing group in attributesToUpdate is errSecParam", arguments: PasswordClass.allCases)
    func sharingGroupInUpdate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecAttrSharingGroup: "group"])) == errSecParam)
        }
    }

    @Test("kSecUseAuthenticationUISkip outside SecItemCopyMatching is errSecParam", arguments: PasswordClass.allCases)
    func skipOutsideSearch(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let skip = passwordClass.base.with([kSecUseAuthenticationUI: kSecUseAuthenticationUISkip])
            #expect(update(skip, item([kSecAttrLabel: "x"])) == errSecParam)
            #expect(delete(skip) == errSecParam)
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("kSecUseAuthenticationUI that is not a string is errSecParam", arguments: PasswordClass.allCases)
    func authenticationUINotString(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with([kSecUseAuthenticationUI: kCFBooleanTrue!])).status == errSecParam)
        }
    }

    @Test("kSecUseAuthenticationContext together with kSecUseCredentialReference is errSecParam", arguments: PasswordClass.allCases)
    func contextWithCredentialReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with([kSecUseAuthenticationContext: NSObject(),
                                                          kSecUseCredentialReference: Data([1])])).status == errSecParam)
        }
    }

    @Test("kSecUseCredentialReference that is not data is errSecParam", arguments: PasswordClass.allCases)
    func credentialReferenceNotData(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with([kSecUseCredentialReference: "cred"])).status == errSecParam)
        }
    }

    @Test("kSecUseTombstones accepts booleans, numbers and any string, and refuses other values", arguments: PasswordClass.allCases)
    func useTombstonesValues(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for value in [kCFBooleanFalse! as Any, 0 as Any, "0" as Any, "not a number" as Any] {
                #expect(exists(passwordClass.base.with([kSecUseTombstones: value])) == errSecSuccess)
            }
            #expect(exists(passwordClass.base.with([kSecUseTombstones: Data()])) == errSecParam)
        }
    }

    @Test("Schema-internal names that are not settable (data, v_pk) are errSecParam in a query", arguments: PasswordClass.allCases)
    func internalColumnsInQuery(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(passwordClass.base.with(["data": Data([1])])).status == errSecParam)
            #expect(copyMatching(passwordClass.base.with(["v_pk": Data([1])])).status == errSecParam)
            #expect(add(passwordClass.withSecret.with(["data": Data([1])])) == errSecParam)
        }
    }

    @Test("Schema-internal names (rowid, v_pk, data) in attributesToUpdate are errSecParam", arguments: PasswordClass.allCases)
    func internalColumnsInChanges(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            for name in ["rowid", "v_pk", "data"] {
                #expect(update(passwordClass.base, [name: Data([1])]) == errSecParam, "\(name)")
            }
        }
    }

    /// Security's XPC server refuses these before the keychain reads the dictionary, so the
    /// class does not matter (OSX/sec/ipc/server.c, sec_item_add_id).
    @Test("Private attributes in an add (CloudKit plaintext fields, inet's extra secret fields, kSecAttrSysBound) are errSecMissingEntitlement",
          arguments: PasswordClass.allCases, ["dspk", "pcss", "pcsk", "pcsi", "binn", "bini", "bin0", "bin3", "sysb"])
    func privateAttributesInAdd(_ passwordClass: PasswordClass, _ name: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret.with([name as CFString: Data("x".utf8)])) == errSecMissingEntitlement)
            #expect(exists(passwordClass.base) == errSecItemNotFound)
        }
    }

    /// sec_item_update_id checks dspk and sysb in the query, the other fields in attributesToUpdate.
    @Test("Private attributes in an update are errSecMissingEntitlement: dspk or sysb in the query, plaintext or extra fields in the changes",
          arguments: PasswordClass.allCases)
    func privateAttributesInUpdate(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base.with([kSecAttrSysBound: 1]), item([kSecAttrLabel: "x"])) == errSecMissingEntitlement)
            #expect(update(passwordClass.base.with([kSecAttrDeriveSyncIDFromItemAttributes: kCFBooleanTrue!]), item([kSecAttrLabel: "x"])) == errSecMissingEntitlement)
            for name in [kSecAttrPCSPlaintextServiceIdentifier, kSecAttrPCSPlaintextPublicKey, kSecAttrPCSPlaintextPublicIdentity,
                         kSecDataInetExtraNotes, kSecDataInetExtraClientDefined2] {
                #expect(update(passwordClass.base, item([name: Data("x".utf8)])) == errSecMissingEntitlement, "\(name)")
            }
            let stored = attributes(of: passwordClass.base)
            #expect(stored?["labl"] == nil)
        }
    }

    @Test("inet's extra secret fields in a search are not filters")
    func internetExtraFieldsInSearch() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.inet.withSecret) == errSecSuccess)
            #expect(exists(PasswordClass.inet.base.with([kSecDataInetExtraNotes: Data("anything".utf8)])) == errSecSuccess)
            #expect(exists(PasswordClass.genp.base.with([kSecDataInetExtraNotes: Data("anything".utf8)])) == errSecNoSuchAttr)
        }
    }

    @Test("A failed call never changes the keychain: the item is still there with its secret", arguments: PasswordClass.allCases)
    func failuresChangeNothing(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(update(passwordClass.base, item([kSecValueData: Data("x".utf8), kSecAttrLabel: 5, "zzzz": 1])) == errSecNoSuchAttr)
            #expect(delete(passwordClass.base.with([kSecMatchLimit: kSecMatchLimitOne])) == errSecParam)
            #expect(secret(of: passwordClass.base) == Data("s3cret".utf8))
        }
    }

    @Test("kSecValueRef that is not a key or certificate is errSecParam in every call (passwords have no reference type)",
          arguments: everyClassAndCall)
    func valueRefRefused(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            #expect(call.status(passwordClass.base.with([kSecValueRef: NSObject()])) == errSecParam)
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }
}
