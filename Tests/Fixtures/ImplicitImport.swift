// Compile-only fixture: keychain code that imports only Foundation, as much Apple-platform code
// does (there Foundation brings Security along). EndToEndTests/ImportPathTests type-checks it with
// `-Xfrontend -import-module -Xfrontend KeychainServices`; nothing here runs.
import Foundation

func savePassword(_ password: String, account: String) -> OSStatus {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrAccount as String: account,
        kSecValueData as String: Data(password.utf8),
    ]
    let status = SecItemAdd(query as CFDictionary, nil)
    if status == errSecDuplicateItem {
        return SecItemUpdate([kSecClass as String: kSecClassGenericPassword,
                              kSecAttrAccount as String: account] as CFDictionary,
                             [kSecValueData as String: Data(password.utf8)] as CFDictionary)
    }
    return status
}

func loadPassword(account: String) -> String? {
    var r: CFTypeRef?
    let status = SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                      kSecAttrAccount as String: account,
                                      kSecReturnData as String: kCFBooleanTrue!] as CFDictionary, &r)
    guard status == errSecSuccess, let data = r as? Data else { return nil }
    return String(data: data, encoding: .utf8)
}

func deletePassword(account: String) -> Bool {
    let status = SecItemDelete([kSecClass as String: kSecClassGenericPassword,
                                kSecAttrAccount as String: account] as CFDictionary)
    return status == errSecSuccess || status == errSecItemNotFound
}
