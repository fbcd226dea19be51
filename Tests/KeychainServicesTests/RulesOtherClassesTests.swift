import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Calls naming the certificate, key and identity classes on a keychain that holds none of them
/// answer with the statuses Apple gives for a class that holds no items, and never crash.
@Suite("Rules: certificate, key and identity classes on an empty keychain")
struct RulesOtherClassesTests {
    static let classes = ["cert", "keys", "idnt"]

    @Test("A search of an empty class is errSecItemNotFound", arguments: classes)
    func searchEmpty(_ itemClass: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            for returns in [item([:]), item([kSecReturnRef: kCFBooleanTrue!]), item([kSecReturnAttributes: kCFBooleanTrue!, kSecMatchLimit: kSecMatchLimitAll])] {
                var result: CFTypeRef?
                let query = returns.with([kSecClass: itemClass as CFString])
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
                #expect(result == nil)
            }
        }
    }

    @Test("A delete of an empty class is errSecItemNotFound", arguments: classes)
    func deleteEmpty(_ itemClass: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(delete(item([kSecClass: itemClass as CFString])) == errSecItemNotFound)
            #expect(delete(item([kSecClass: itemClass as CFString, kSecAttrLabel: "x"])) == errSecItemNotFound)
        }
    }

    @Test("An update of an empty class is errSecItemNotFound", arguments: classes)
    func updateEmpty(_ itemClass: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(update(item([kSecClass: itemClass as CFString]), item([kSecAttrLabel: "x"])) == errSecItemNotFound)
        }
    }

    @Test("Deleting certificates, keys and identities leaves passwords alone", arguments: classes)
    func passwordsUntouched(_ itemClass: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add(PasswordClass.genp.withSecret) == errSecSuccess)
            #expect(add(PasswordClass.inet.withSecret) == errSecSuccess)
            #expect(delete(item([kSecClass: itemClass as CFString])) == errSecItemNotFound)
            #expect(exists(PasswordClass.genp.base) == errSecSuccess)
            #expect(exists(PasswordClass.inet.base) == errSecSuccess)
        }
    }

    @Test("A password attribute on a certificate or key query is errSecNoSuchAttr", arguments: ["cert", "keys"])
    func passwordAttributeOnOtherClass(_ itemClass: String) throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(item([kSecClass: itemClass as CFString, kSecAttrService: "x"])).status == errSecNoSuchAttr)
            #expect(copyMatching(item([kSecClass: itemClass as CFString, kSecAttrServer: "x"])).status == errSecNoSuchAttr)
        }
    }

    @Test("kSecAttrApplicationTag is a key attribute: errSecNoSuchAttr for certificates, a filter for keys")
    func applicationTagBelongsToKeys() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(copyMatching(item([kSecClass: kSecClassCertificate, kSecAttrApplicationTag: Data([1])])).status == errSecNoSuchAttr)
            #expect(copyMatching(item([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data([1])])).status == errSecItemNotFound)
        }
    }
}
