#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainAuthentication
import KeychainStore

/// The authentication loop of a SecItem call (on Apple, the client's `SecItemAuthDo` in
/// `SecItem.c`, which retries the call once the user has authenticated): for each matched item
/// whose access control requires authentication, prove it with the keychain password (through the
/// caller's LAContext and the installed authenticator), or skip the item, or fail the call.
final class ItemAuthentication: @unchecked Sendable {
    private let file: KeychainFile
    private let context: LAContext?
    private let reason: String
    private let mode: String?
    /// The credential proved during this call: one prompt serves every item of the call.
    private var proved: PresenceCredential?

    init(query: ParsedQuery, file: KeychainFile) {
        self.file = file
        self.context = query.authenticationContext as? LAContext
        self.reason = query.operationPrompt ?? ""
        self.mode = query.authenticationUI
    }

    /// Whether this platform can satisfy biometric requirements (simulated biometry only).
    static var biometryAvailable: Bool { KeychainAuthenticators.simulatedBiometry }

    /// The engine's authorizer for this call.
    var authorizer: ItemAuthorizer {
        { accessControl throws(KeychainStoreError) -> AuthorizationOutcome in try self.authorize(accessControl) }
    }

    private func authorize(_ accessControl: Data?) throws(KeychainStoreError) -> AuthorizationOutcome {
        guard let control = accessControl.flatMap(SecAccessControl.decoded) else {
            throw KeychainStoreError(status: errSecDecode, reason: "an item's access control is damaged")
        }
        let skip = mode == "u_AuthUIS"
        switch PresenceRequirement(control, biometryAvailable: Self.biometryAvailable) {
        case .none:
            throw KeychainStoreError(status: errSecDecode, reason: "an item is sealed for authentication its access control does not ask for")
        case .unsatisfiable:
            if skip { return .skip }
            throw KeychainStoreError(status: errSecAuthFailed, reason: "the item's access control asks for biometry or a companion device, which this machine does not have")
        case .password(let biometric):
            if let proved { return .credential(proved) }
            do {
                // Skip never prompts: only an authentication the context already holds counts.
                let credential = try obtainPresenceCredential(
                    for: file, context: context,
                    policy: biometric ? .deviceOwnerAuthenticationWithBiometrics : .deviceOwnerAuthentication,
                    reason: reason, interactionAllowed: !skip && mode != "u_AuthUIF")
                proved = credential
                return .credential(credential)
            } catch {
                if skip { return .skip }
                throw KeychainStoreError(status: keychainStatus(for: error), reason: "authentication did not succeed (\(error.code))")
            }
        }
    }
}
#endif
