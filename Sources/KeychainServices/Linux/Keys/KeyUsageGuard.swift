#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
import KeychainStore

/// The check a stored private key makes before each use (sign, decrypt, key exchange) when its
/// access control carries `.privateKeyUsage`: as on Apple platforms, such a key is fetched
/// without authentication and asks for it when it is used. Here the keychain password stands
/// for the device passcode (biometry only when simulated), through the LAContext given with the
/// query that fetched the key, so one authentication of that context serves several uses.
///
/// The key material itself stays sealed in the keychain file under the item's protection class;
/// the guard decides whether this process may use what it has read.
final class KeyUsageGuard: @unchecked Sendable {
    private let control: SecAccessControl
    private let context: ReferenceContext
    private let lock = NSLock()

    /// nil when the item's access control asks for nothing at use time.
    init?(item: StoredItem, context: ReferenceContext) {
        guard let stored = item.attributes[AttributeName.accessControl]?.dataValue,
              let control = SecAccessControl.decoded(stored),
              control.flags.contains(.privateKeyUsage), !control.constraints.isEmpty else { return nil }
        self.control = control
        self.context = context
    }

    /// Proves the access control, or throws the status Apple gives for a failed authentication.
    func authorize() throws(KeyError) {
        lock.lock()
        defer { lock.unlock() }
        // Check as if the flags did not say privateKeyUsage: they now guard this very use.
        let asUse = SecAccessControl(protection: control.protection, flags: control.flags.subtracting(.privateKeyUsage))
        switch PresenceRequirement(asUse, biometryAvailable: ItemAuthentication.biometryAvailable) {
        case .none:
            return
        case .unsatisfiable:
            throw KeyError(errSecAuthFailed, "the key's access control asks for biometry or a companion device, which this machine does not have")
        case .password(let biometric):
            do {
                _ = try obtainPresenceCredential(
                    for: context.file, context: context.authenticationContext,
                    policy: biometric ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication,
                    reason: context.operationPrompt ?? "", interactionAllowed: context.authenticationUI != "u_AuthUIF")
            } catch {
                throw KeyError(keychainStatus(for: error), "authentication for using the key did not succeed")
            }
        }
    }
}
#endif
