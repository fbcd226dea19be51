import Foundation
import KeychainServices
import KeychainctlCommandLine

/// dump-keychain's listing of password items, on the public SecItem API (the per-credential
/// commands go through their executor over the engine, `PasswordExecutor`, which makes the
/// engine calls SecItem makes).
///
/// The keychain and identity are chosen beforehand with `KeychainSession` (the process's default
/// keychain context), so these calls take no keychain argument, exactly as an app's calls do.
enum ItemStore {
    /// One found item: its attributes, and its secret when asked for.
    struct Found {
        let attributes: [String: Any]
        let secret: Data?
    }

    /// Every item of `kind`, synchronizable ones too, in the order the keychain keeps them.
    static func all(_ kind: PasswordCommandSyntax.Item, withSecrets: Bool, context: String) throws(CommandFailure) -> [Found] {
        var request: [String: Any] = [kSecClass as String: kind.classCode]
        request[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny
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

    private static func found(_ attributes: [String: Any]) -> Found {
        var attributes = attributes
        attributes[kSecValuePersistentRef as String] = nil
        let secret = attributes.removeValue(forKey: kSecValueData as String) as? Data
        return Found(attributes: attributes, secret: secret)
    }
}
