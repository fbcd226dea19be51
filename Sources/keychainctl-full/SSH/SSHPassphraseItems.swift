import Foundation
import KeychainServices

/// The passphrases of key files kept in the keychain, as Apple's OpenSSH keeps them for
/// `ssh-add --apple-use-keychain` (keychain.c in Apple's OpenSSH sources): a generic password
/// with service `SSH`, the key file's absolute path as its account and `SSH: PATH` as its label.
/// The same item is read and written here, so a keychain carried over from a Mac works.
enum SSHPassphraseItems {
    static let service = "SSH"

    static func label(for path: String) -> String { "SSH: " + path }

    /// The stored passphrase of the file at `path`, nil when there is none.
    static func passphrase(for path: String) throws(CommandFailure) -> [UInt8]? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: service,
                                          kSecAttrAccount: path, kSecReturnData: true] as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw .status(status == errSecSuccess ? errSecInternal : status, "SecItemCopyMatching")
        }
        return Array(data)
    }

    /// Stores (or replaces) the passphrase of the file at `path`.
    static func store(_ passphrase: [UInt8], for path: String) throws(CommandFailure) {
        let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: path]
        var status = SecItemUpdate(query as CFDictionary, [kSecValueData: Data(passphrase), kSecAttrLabel: label(for: path)] as CFDictionary)
        if status == errSecItemNotFound {
            var attributes = query
            attributes[kSecValueData] = Data(passphrase)
            attributes[kSecAttrLabel] = label(for: path)
            status = SecItemAdd(attributes as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw .status(status, "SecItemAdd") }
    }

    /// Every key file path the keychain holds a passphrase for.
    static func paths() throws(CommandFailure) -> [String] {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: service,
                                          kSecReturnAttributes: true, kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [NSDictionary] else {
            throw .status(status == errSecSuccess ? errSecInternal : status, "SecItemCopyMatching")
        }
        return items.compactMap { $0[kSecAttrAccount] as? String }.sorted()
    }
}
