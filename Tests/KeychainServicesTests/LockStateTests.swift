import Foundation
import Testing
import KeychainServices
import KeychainStore
import KeychainTestSupport

/// Apple's data protection classes on a keychain with a password: which classes are readable
/// while locked, after the first unlock and always (docs/architecture.md, "Key hierarchy").
@Suite struct LockStateTests {
    // Strings (Sendable) standing for the kSecAttrAccessible constants, checked against them below.
    static let accessibilities = ["ak", "ck", "dk", "aku", "cku", "dku"]

    func add(_ account: String, _ accessible: CFString, secret: String = "secret") -> OSStatus {
        SecItemAdd([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                    kSecAttrAccessible: accessible, kSecValueData: Data(secret.utf8) as NSData] as NSDictionary, nil)
    }

    func read(_ account: String) -> (OSStatus, String?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                          kSecReturnData: kCFBooleanTrue!] as NSDictionary, &result)
        return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test("Without a password every class but akpu is readable and writable", arguments: accessibilities)
    func noPasswordEveryClass(_ pdmn: String) throws {
        let accessible = pdmn as CFString
        let keychain = try TestKeychain()
        try keychain.run {
            #expect(add("a", accessible) == errSecSuccess)
            #expect(read("a").1 == "secret")
            let attributes = try #require(copyAttributes("a"))
            #expect(attributes[kSecAttrAccessible as String] as? String == accessible as String)
        }
        #expect(!keychain.file.hasPassword)
        #expect(!keychain.file.isLocked)
    }

    func copyAttributes(_ account: String) -> [String: Any]? {
        var result: CFTypeRef?
        _ = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrAccount: account as NSString,
                                 kSecReturnAttributes: kCFBooleanTrue!] as NSDictionary, &result)
        return result as? [String: Any]
    }

    @Test("An akpu item cannot be added to a keychain without a password")
    func akpuNeedsPassword() throws {
        let keychain = try TestKeychain()
        keychain.run {
            #expect(add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecNotAvailable)
            #expect(read("p").0 == errSecItemNotFound)
        }
    }

    @Test("Locking makes class A items unreadable with errSecInteractionNotAllowed, never not-found")
    func lockedClassA() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("correct horse", currentPassword: nil)
        keychain.run {
            #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            #expect(add("aku", kSecAttrAccessibleWhenUnlockedThisDeviceOnly) == errSecSuccess)
            #expect(add("ck", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
            #expect(add("dk", kSecAttrAccessibleAlways) == errSecSuccess)
            keychain.file.lock()
            #expect(keychain.file.isLocked)
            #expect(read("ak").0 == errSecInteractionNotAllowed)
            #expect(read("aku").0 == errSecInteractionNotAllowed)
            #expect(read("ck") == (errSecSuccess, "secret"))
            #expect(read("dk") == (errSecSuccess, "secret"))
        }
    }

    @Test("While locked, adding, updating or deleting a class A item is errSecInteractionNotAllowed")
    func lockedWrites() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        try keychain.run {
            #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            keychain.file.lock()
            #expect(add("new", kSecAttrAccessibleWhenUnlocked) == errSecInteractionNotAllowed)
            let query = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "ak" as NSString] as NSDictionary
            #expect(SecItemUpdate(query, [kSecValueData: Data("x".utf8) as NSData] as NSDictionary) == errSecInteractionNotAllowed)
            #expect(SecItemDelete(query) == errSecInteractionNotAllowed)
            try keychain.file.unlock(password: "pw")
            #expect(read("ak") == (errSecSuccess, "secret"))
        }
    }

    @Test("One locked match fails a search of several items, attribute-only searches included")
    func oneLockedMatchFailsAll() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.run {
            #expect(add("dk", kSecAttrAccessibleAlways) == errSecSuccess)
            #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            keychain.file.lock()
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll,
                                              kSecReturnAttributes: kCFBooleanTrue!] as NSDictionary, &result)
            #expect(status == errSecInteractionNotAllowed)
            #expect(result == nil)
        }
    }

    @Test("A wrong password is errSecAuthFailed, keeps the keychain locked and says nothing of the password")
    func wrongPassword() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("right", currentPassword: nil)
        keychain.file.lock()
        #expect(throws: KeychainStoreError.self) { try keychain.file.unlock(password: "wrong-guess") }
        do {
            try keychain.file.unlock(password: "wrong-guess")
        } catch {
            #expect(error.status == errSecAuthFailed)
            #expect(!error.description.contains("wrong-guess"))
        }
        #expect(keychain.file.isLocked)
        try keychain.file.unlock(password: "right")
        #expect(!keychain.file.isLocked)
    }

    @Test("Changing the password makes the old one fail and the new one work, and keeps every item")
    func changePassword() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("old", currentPassword: nil)
        keychain.run { #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess) }
        #expect(throws: KeychainStoreError.self) { try keychain.file.setPassword("new", currentPassword: "not-old") }
        try keychain.file.setPassword("new", currentPassword: "old")
        keychain.file.lock()
        #expect(throws: KeychainStoreError.self) { try keychain.file.unlock(password: "old") }
        try keychain.file.unlock(password: "new")
        keychain.run { #expect(read("ak") == (errSecSuccess, "secret")) }
    }

    @Test("akpu items exist only while a password is set: removing it makes them vanish")
    func akpuVanishes() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.run {
            #expect(add("akpu", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecSuccess)
            #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            #expect(read("akpu") == (errSecSuccess, "secret"))
        }
        try keychain.file.setPassword(nil, currentPassword: "pw")
        #expect(!keychain.file.hasPassword)
        keychain.run {
            #expect(read("akpu").0 == errSecItemNotFound)
            #expect(read("ak") == (errSecSuccess, "secret"))
        }
    }

    @Test("A second handle on the same file sees the unlock and the lock of the first")
    func sharedBetweenHandles() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.run { #expect(add("ak", kSecAttrAccessibleWhenUnlocked) == errSecSuccess) }
        keychain.file.lock()
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        guard other.unlockSharing == .kernelKeyring else { return }
        #expect(other.isLocked)
        try keychain.file.unlock(password: "pw")
        #expect(!other.isLocked)
        keychain.file.lock()
        #expect(other.isLocked)
    }

    @Test("The idle timeout locks the keychain by itself")
    func idleTimeout() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        try keychain.file.setLockTimeout(1)
        #expect(keychain.file.lockTimeout == 1)
        keychain.file.lock()
        try keychain.file.unlock(password: "pw")
        #expect(!keychain.file.isLocked)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(keychain.file.isLocked)
    }

    @Test("Class C items stay readable after a lock: they need only the first unlock")
    func classCAfterFirstUnlock() throws {
        let keychain = try TestKeychain()
        try keychain.file.setPassword("pw", currentPassword: nil)
        keychain.run { #expect(add("ck", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly) == errSecSuccess) }
        keychain.file.lock()
        keychain.run { #expect(read("ck") == (errSecSuccess, "secret")) }
        // A fresh handle (as a new process would) finds the first-unlock keys in the user keyring.
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey)
        guard other.unlockSharing == .kernelKeyring else { return }
        KeychainContext.withContext(KeychainContext(file: other, identity: .unconfigured)) {
            #expect(read("ck") == (errSecSuccess, "secret"))
        }
        keychain.file.forgetSharedUnlockState()
    }
}
