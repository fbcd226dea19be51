// Compile-only fixture: forms that Apple-platform keychain code uses, written as such code writes
// them (`import Security`). EndToEndTests/ImportPathTests type-checks this file with
// `-module-alias Security=KeychainServices`; nothing here runs.
import Foundation
import Security

func readPasswordTheCommonWay() -> Data? {
    let query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword,
        kSecAttrService as String: "example.com",
        kSecAttrAccount as String: "alice",
        kSecReturnData as String: kCFBooleanTrue!,
        kSecMatchLimit as String: kSecMatchLimitOne,
    ]
    var r: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &r)
    guard status == errSecSuccess else { return nil }
    return r as? Data
}

func readPasswordThroughAPointer() -> OSStatus {
    let q = ["class": "genp", "acct": "x" as CFString] as CFDictionary
    var r: CFTypeRef?
    let status = withUnsafeMutablePointer(to: &r) { SecItemCopyMatching(q, UnsafeMutablePointer($0)) }
    return status == noErr ? errSecSuccess : status
}

func queryKeyedByCFString() -> OSStatus {
    let query: [CFString: Any] = [
        kSecClass: kSecClassInternetPassword,
        kSecAttrServer: "www.example.com",
        kSecReturnAttributes: true,
        kSecMatchLimit: kSecMatchLimitAll,
    ]
    var items: AnyObject?
    let status = SecItemCopyMatching(query as CFDictionary, &items)
    if let array = items as? [[String: Any]] {
        _ = array.compactMap { $0[kSecAttrAccount as String] as? String }
    }
    if let dictionary = items as? NSDictionary {
        _ = dictionary[kSecValueData] as? Data
    }
    return status
}

func writeUpdateDelete() -> [OSStatus] {
    let base: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"]
    var add = base
    add[kSecValueData as String] = Data("s".utf8)
    add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
    add[kSecAttrSynchronizable as String] = kCFBooleanFalse
    return [
        SecItemAdd(add as CFDictionary, nil),
        SecItemUpdate(base as CFDictionary, [kSecValueData as String: Data("t".utf8)] as CFDictionary),
        SecItemDelete(base as CFDictionary),
    ]
}

func accessControl() -> SecAccessControl? {
    let simple = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
    var error: Unmanaged<CFError>?
    let strict = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                 [.biometryCurrentSet, .or, .devicePasscode], &error)
    if strict == nil, let cfError = error?.takeRetainedValue() {
        let code: CFIndex = CFErrorGetCode(cfError)
        let domain = CFErrorGetDomain(cfError) as String?
        _ = (code, domain)
    }
    return simple ?? strict
}

func describe(_ status: OSStatus) -> String {
    let message = SecCopyErrorMessageString(status, nil) as String?
    return message ?? "OSStatus \(status)"
}

func typeChecks(_ value: CFTypeRef) -> Bool {
    CFGetTypeID(value) == CFDataGetTypeID() || CFGetTypeID(value) == CFDictionaryGetTypeID()
}

func randomBytes() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 32)
    let status = SecRandomCopyBytes(kSecRandomDefault, bytes.count, &bytes)
    return status == errSecSuccess ? bytes : []
}
