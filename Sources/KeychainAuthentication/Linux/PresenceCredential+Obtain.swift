#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
package import KeychainStore

/// How many passwords one evaluation accepts before failing, as a passcode sheet or sudo does.
let maximumAuthenticationAttempts = 3

/// Proves the device owner is present for `file`: the one entry point the SecItem layer calls
/// before reading an item whose access control needs user presence or the passcode.
///
/// In order:
/// 1. `context` invalidated → ``LAError/Code/invalidContext``.
/// 2. A policy this machine cannot satisfy → ``LAError/Code/biometryNotAvailable`` (biometric
///    policies without simulated biometry) or ``LAError/Code/companionNotAvailable``. This comes
///    before reuse so that a proof obtained with the password never opens a biometry-only item.
/// 3. A proof `context` holds for `file` that may still be reused → returned, no prompt.
/// 4. `file` has no password → ``LAError/Code/passcodeNotSet`` (nothing to ask for).
/// 5. `interactionAllowed` false or `context.interactionNotAllowed` → ``LAError/Code/notInteractive``,
///    without calling the authenticator.
/// 6. Up to three requests to the installed ``KeychainAuthenticator``: a password the keychain
///    accepts → the proof, also kept in `context`; a wrong one → the next request (with
///    ``AuthenticationRequest/previousAttemptFailed``); ``AuthenticationReply/cancel`` →
///    ``LAError/Code/userCancel``; ``AuthenticationReply/notInteractive`` →
///    ``LAError/Code/notInteractive``; three wrong → ``LAError/Code/authenticationFailed``.
///
/// - Parameters:
///   - file: the keychain whose password proves presence.
///   - context: the caller's `kSecUseAuthenticationContext`, if any.
///   - policy: the policy the item's access control asks for.
///   - reason: the `kSecUseOperationPrompt` text (or the context's reason).
///   - interactionAllowed: false for `kSecUseAuthenticationUIFail` (and `kSecUseNoAuthenticationUI`).
/// - Throws: ``LAError``; turn it into an `OSStatus` with ``keychainStatus(for:)``.
package func obtainPresenceCredential(for file: KeychainFile, context: LAContext?, policy: LAPolicy,
                                      reason: String, interactionAllowed: Bool) throws(LAError) -> PresenceCredential {
    try obtainPresenceCredential(for: file, context: context, policy: policy, reason: reason,
                                 interactionAllowed: interactionAllowed, environment: .current)
}

func obtainPresenceCredential(for file: KeychainFile, context: LAContext?, policy: LAPolicy, reason: String,
                              interactionAllowed: Bool, environment: AuthenticationEnvironment) throws(LAError) -> PresenceCredential {
    if context?.isInvalidated == true { throw LAError(.invalidContext) }
    if let unavailable = policy.unavailability(simulatedBiometry: environment.simulatedBiometry) { throw unavailable }
    if let held = context?.reusableCredential(for: file.identifier) { return held }
    if !file.hasPassword { throw LAError(.passcodeNotSet) }
    if !interactionAllowed || context?.interactionNotAllowed == true { throw LAError(.notInteractive) }
    for attempt in 1...maximumAuthenticationAttempts {
        let request = AuthenticationRequest(reason: reason, policy: policy, attempt: attempt, previousAttemptFailed: attempt > 1)
        switch environment.authenticator.authenticate(request) {
        case .cancel:
            throw LAError(.userCancel)
        case .notInteractive:
            throw LAError(.notInteractive)
        case .password(let password):
            let credential: PresenceCredential
            do {
                credential = try file.authenticate(password: password)
            } catch {
                switch error.status {
                case SecStatus.authFailed: continue                     // wrong password
                case SecStatus.notAvailable: throw LAError(.passcodeNotSet) // no password
                default: throw LAError(.authenticationFailed, userInfo: [NSUnderlyingErrorKey: engineError(error)])
                }
            }
            // invalidate() while the user was typing cancels the evaluation, as on Apple platforms.
            if let context, !context.hold(credential, for: file.identifier) { throw LAError(.appCancel) }
            return credential
        }
    }
    throw LAError(.authenticationFailed)
}

/// The `OSStatus` a keychain call returns when authentication ended with `error`.
///
/// Apple's client maps LocalAuthentication errors this way: user cancel → `errSecUserCanceled`
/// (-128), not interactive → `errSecInteractionNotAllowed` (-25308), a bad parameter → `errSecParam`
/// (-50), anything else → `errSecAuthFailed` (-25293). One addition: when the check itself failed
/// inside the engine (an I/O error reading the keychain), that status is returned instead of
/// pretending the password was wrong.
package func keychainStatus(for error: LAError) -> Int32 {
    if let underlying = error.errorUserInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == osStatusDomain {
        return Int32(truncatingIfNeeded: underlying.code)
    }
    return keychainStatus(forLAErrorCode: error.code.rawValue)
}

/// ``keychainStatus(for:)`` for a raw LocalAuthentication code, including Apple's private
/// parameter error (-1001), which ``LAError/Code`` does not list.
package func keychainStatus(forLAErrorCode code: Int) -> Int32 {
    switch code {
    case LAError.Code.userCancel.rawValue: SecStatus.userCanceled
    case LAError.Code.notInteractive.rawValue: SecStatus.interactionNotAllowed
    case -1001: SecStatus.param
    default: SecStatus.authFailed
    }
}

let osStatusDomain = "NSOSStatusErrorDomain"

/// An engine failure as an `NSError` in the OSStatus domain (the reason never holds a secret).
func engineError(_ error: KeychainStoreError) -> NSError {
    NSError(domain: osStatusDomain, code: Int(error.status), userInfo: [NSLocalizedDescriptionKey: error.reason])
}
#endif
