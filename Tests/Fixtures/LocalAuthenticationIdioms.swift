// Apple-platform code that reads a protected item with an LAContext, as apps write it. Type-checked
// (never run) by ImportPathTests with -module-alias Security=KeychainServices and
// -module-alias LocalAuthentication=KeychainAuthentication.
import Foundation
import LocalAuthentication
import Security

func canUseBiometry() -> Bool {
    let context = LAContext()
    var error: NSError?
    let possible = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
    if let error = error as? LAError, error.code == .biometryNotAvailable { return false }
    return possible
}

func readToken(reason: String) -> Data? {
    let context = LAContext()
    context.localizedReason = reason
    context.touchIDAuthenticationAllowableReuseDuration = 10
    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                kSecAttrService as String: "api.example.com",
                                kSecReturnData as String: true,
                                kSecUseAuthenticationContext as String: context,
                                kSecUseOperationPrompt as String: reason]
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    context.invalidate()
    return status == errSecSuccess ? result as? Data : nil
}

func unlock(_ done: @escaping @Sendable (Bool) -> Void) {
    LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock your vault") { success, error in
        if let error = error as? LAError, error.code == .userCancel { done(false); return }
        done(success)
    }
}

func storeGuarded(_ secret: Data) -> OSStatus {
    guard let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                                                       [.biometryAny, .or, .devicePasscode], nil) else { return errSecParam }
    return SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "vault",
                       kSecValueData as String: secret, kSecAttrAccessControl as String: access] as CFDictionary, nil)
}
