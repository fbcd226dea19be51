import Foundation
import KeychainServices

/// The item operations of the CLI, on the public SecItem API: whatever keychainctl stores,
/// an application calling `SecItemCopyMatching` finds, and the other way round.
///
/// The keychain and identity are chosen beforehand with `KeychainSession` (the process's default
/// keychain context), so these calls take no keychain argument, exactly as an app's calls do.
enum ItemStore {
    /// One found item: its attributes, its persistent reference (so that a later delete or
    /// update acts on this item and no other), and its secret when asked for.
    struct Found {
        let attributes: [String: Any]
        let reference: Data
        let secret: Data?
    }

    /// The first item matching `query`, or nil when there is none.
    static func first(_ query: [String: Any], withSecret: Bool, context: String) throws(CommandFailure) -> Found? {
        var request = query
        request[kSecReturnAttributes as String] = true
        request[kSecReturnPersistentRef as String] = true
        if withSecret { request[kSecReturnData as String] = true }
        request[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(request as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw .status(status, context) }
        guard let dictionary = ResultObjects.dictionary(result) else { throw .status(errSecInternal, context) }
        return found(dictionary)
    }

    /// Every item of `kind`, in the order the keychain keeps them.
    static func all(_ kind: PasswordKind, withSecrets: Bool, context: String) throws(CommandFailure) -> [Found] {
        var request: [String: Any] = [kSecClass as String: kind.classCode]
        request[kSecReturnAttributes as String] = true
        request[kSecReturnPersistentRef as String] = true
        if withSecrets { request[kSecReturnData as String] = true }
        request[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(request as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw .status(status, context) }
        guard let array = ResultObjects.dictionaries(result) else { throw .status(errSecInternal, context) }
        return array.map(found)
    }

    static func add(_ attributes: [String: Any], secret: Data, context: String) throws(CommandFailure) {
        var request = attributes
        request[kSecValueData as String] = secret
        let status = SecItemAdd(request as CFDictionary, nil)
        guard status == errSecSuccess else { throw .status(status, context) }
    }

    /// Changes the one item `reference` names.
    static func update(_ reference: Data, changes: [String: Any], context: String) throws(CommandFailure) {
        let query: [String: Any] = [kSecValuePersistentRef as String: reference]
        var changes = changes
        changes[kSecClass as String] = nil
        let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        guard status == errSecSuccess else { throw .status(status, context) }
    }

    /// Deletes the one item `reference` names.
    static func delete(_ reference: Data, context: String) throws(CommandFailure) {
        let query: [String: Any] = [kSecValuePersistentRef as String: reference]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess else { throw .status(status, context) }
    }

    private static func found(_ attributes: [String: Any]) -> Found {
        var attributes = attributes
        let reference = attributes.removeValue(forKey: kSecValuePersistentRef as String) as? Data ?? Data()
        let secret = attributes.removeValue(forKey: kSecValueData as String) as? Data
        return Found(attributes: attributes, reference: reference, secret: secret)
    }
}
