#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// Something that asks the device owner for the keychain password when an item (or an
/// ``LAContext`` evaluation) needs proof of presence.
///
/// On Apple platforms the system shows its own sheet; on Linux the keychain calls the installed
/// authenticator (``KeychainAuthenticators/install(_:)``): the terminal prompt by default, none
/// without a terminal, or one the app supplies (a GUI dialog, a test script):
///
/// ```swift
/// KeychainAuthenticators.install(.programmable { request in
///     request.previousAttemptFailed ? .cancel : .password(askWithMyDialog(request.reason))
/// })
/// ```
///
/// Contract: ``authenticate(_:)`` may block (it usually waits for a person); it is called from
/// whatever thread made the keychain call, one request at a time per evaluation, at most three
/// times per evaluation. It only supplies a candidate password; the keychain checks it.
/// An authenticator must not log or keep the password.
public protocol KeychainAuthenticator: Sendable {
    /// Asks for the password once.
    ///
    /// - Parameter request: why the password is needed, and which attempt this is.
    /// - Returns: the password typed, or that the user cancelled, or that no one can be asked.
    func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply
}

/// One request for the keychain password, as handed to a ``KeychainAuthenticator``.
public struct AuthenticationRequest: Sendable, Hashable {
    /// The text saying why: the `kSecUseOperationPrompt` of the SecItem call, or the
    /// `localizedReason` of the ``LAContext`` evaluation.
    public var reason: String
    /// The policy being evaluated.
    public var policy: LAPolicy
    /// Which attempt of this evaluation this is, from 1 (at most 3).
    public var attempt: Int
    /// Whether the previous attempt of this evaluation was a wrong password.
    public var previousAttemptFailed: Bool

    /// Makes a request (authenticators receive these; tests make their own).
    public init(reason: String, policy: LAPolicy, attempt: Int = 1, previousAttemptFailed: Bool = false) {
        self.reason = reason
        self.policy = policy
        self.attempt = attempt
        self.previousAttemptFailed = previousAttemptFailed
    }
}

/// What a ``KeychainAuthenticator`` answers.
///
/// Its descriptions never show the password.
public enum AuthenticationReply: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password the user gave; the keychain checks it.
    case password(String)
    /// The user declined (the evaluation fails with ``LAError/Code/userCancel``).
    case cancel
    /// Nobody can be asked here (the evaluation fails with ``LAError/Code/notInteractive``).
    case notInteractive

    public var description: String {
        switch self {
        case .password: "password(<redacted>)"
        case .cancel: "cancel"
        case .notInteractive: "notInteractive"
        }
    }

    public var debugDescription: String { description }

    // Without this, `dump` and debuggers would print the associated password.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
#endif
