import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// The item class: where it comes from (kSecClass or a persistent reference), and the status a
/// missing or unknown one gives.
@Suite("Rules: the item class")
struct RulesClassTests {
    @Test("A dictionary without kSecClass (and without a persistent reference) is errSecParam in every call",
          arguments: everyClassAndCall)
    func missingClass(_ passwordClass: PasswordClass, _ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(passwordClass.withSecret.without(kSecClass)) == errSecParam)
        }
    }

    @Test("A kSecClass that is not a string is errSecParam in every call", arguments: Call.allCases)
    func classNotAString(_ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(item([kSecClass: 1, kSecAttrAccount: "a"])) == errSecParam)
            #expect(call.status(item([kSecClass: Data("genp".utf8), kSecAttrAccount: "a"])) == errSecParam)
        }
    }

    @Test("An unknown class string is errSecNoSuchClass in every call", arguments: Call.allCases)
    func unknownClass(_ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(item([kSecClass: "pass"])) == errSecNoSuchClass)
            #expect(call.status(item([kSecClass: "GENP"])) == errSecNoSuchClass)
        }
    }

    @Test("kSecClassAppleSharePassword (apls) is an unknown class: errSecNoSuchClass", arguments: Call.allCases)
    func appleSharePasswordIsUnknown(_ call: Call) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(call.status(item([kSecClass: kSecClassAppleSharePassword, kSecAttrAccount: "a"])) == errSecNoSuchClass)
        }
    }

    @Test("Without kSecClass the class is taken from the persistent reference", arguments: PasswordClass.allCases)
    func classFromPersistentReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let reference = try #require(persistentReference(of: passwordClass.base))
            let (status, result) = copyMatching(item([kSecValuePersistentRef: reference, kSecReturnData: kCFBooleanTrue!]))
            #expect(status == errSecSuccess)
            #expect(result as? Data == Data("s3cret".utf8))
        }
    }

    @Test("A kSecClass that disagrees with the persistent reference's class is errSecNoSuchClass",
          arguments: PasswordClass.allCases)
    func classDisagreesWithReference(_ passwordClass: PasswordClass) throws {
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add(passwordClass.withSecret) == errSecSuccess)
            let reference = try #require(persistentReference(of: passwordClass.base))
            let other: CFString = passwordClass == .genp ? kSecClassInternetPassword : kSecClassGenericPassword
            let query = item([kSecClass: other, kSecValuePersistentRef: reference])
            #expect(copyMatching(query).status == errSecNoSuchClass)
            #expect(update(query, item([kSecAttrLabel: "x"])) == errSecNoSuchClass)
            #expect(delete(query) == errSecNoSuchClass)
            #expect(exists(passwordClass.base) == errSecSuccess)
        }
    }

    @Test("A persistent reference with the apls prefix parses but names an unknown class: errSecNoSuchClass")
    func appleSharePersistentReference() throws {
        let keychain = try TestKeychain()
        keychain.run {
            var reference = Data("apls".utf8)
            reference.append(Data(repeating: 7, count: 16))
            #expect(copyMatching(item([kSecValuePersistentRef: reference])).status == errSecNoSuchClass)
            #expect(delete(item([kSecValuePersistentRef: reference])) == errSecNoSuchClass)
        }
    }
}
