#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// Why an authentication did not succeed.
///
/// Mirrors LocalAuthentication's `LAError`: a struct carrying a ``Code`` with Apple's numeric
/// values, whose codes are also static members so a `catch` can name one directly:
///
/// ```swift
/// do {
///     _ = try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Sign in")
/// } catch LAError.userCancel {
///     // the user dismissed the prompt
/// }
/// ```
///
/// Seen as an `NSError` it has the domain ``LAErrorDomain`` and the code's raw value.
public struct LAError: Error, CustomNSError, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of failure, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The credentials given were wrong (here: the keychain password, three times).
        case authenticationFailed = -1
        /// The user cancelled the prompt (at the terminal: Ctrl-C, or Ctrl-D on an empty line).
        case userCancel = -2
        /// The user chose the fallback button (not offered on Linux).
        case userFallback = -3
        /// The system cancelled the authentication.
        case systemCancel = -4
        /// The device has no passcode: here, the keychain has no password.
        case passcodeNotSet = -5
        /// The device has no biometry (the Linux default, see ``KeychainAuthenticators/simulatedBiometry``).
        case biometryNotAvailable = -6
        /// The device has biometry but nobody is enrolled.
        case biometryNotEnrolled = -7
        /// Biometry is locked after too many failures.
        case biometryLockout = -8
        /// The app cancelled the authentication.
        case appCancel = -9
        /// The context was invalidated with ``LAContext/invalidate()``.
        case invalidContext = -10
        /// No companion device (watch) is available; always so on Linux.
        case companionNotAvailable = -11
        /// The biometry accessory is not paired.
        case biometryNotPaired = -12
        /// The biometry accessory is not connected.
        case biometryDisconnected = -13
        /// The prompt's dimensions are invalid.
        case invalidDimensions = -14
        /// Authentication would need a prompt, but prompting is not allowed (no terminal,
        /// ``LAContext/interactionNotAllowed``, or the caller asked not to).
        case notInteractive = -1004

        /// The older name of ``biometryNotAvailable``.
        public static let touchIDNotAvailable = Code.biometryNotAvailable
        /// The older name of ``biometryNotEnrolled``.
        public static let touchIDNotEnrolled = Code.biometryNotEnrolled
        /// The older name of ``biometryLockout``.
        public static let touchIDLockout = Code.biometryLockout
        /// The older name of ``companionNotAvailable``.
        public static let watchNotAvailable = Code.companionNotAvailable
    }

    /// What went wrong.
    public let code: Code
    // Kept as an NSError so any user info survives the trip through `as NSError` and back.
    private let userInfoStorage: NSError

    /// Makes an error with `code`; `userInfo` is what the error exposes as its `NSError` user info.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = code.summary }
        self.userInfoStorage = NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: info)
    }

    /// ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }
    /// The code's raw value (Apple's number).
    public var errorCode: Int { code.rawValue }
    /// The user info given at creation, with a description added when none was given.
    public var errorUserInfo: [String: Any] { userInfoStorage.userInfo }
    /// A sentence saying what happened; never contains a secret.
    public var errorDescription: String? { userInfoStorage.userInfo[NSLocalizedDescriptionKey] as? String }
    public var description: String { "LAError(\(code), \(code.rawValue)): \(errorDescription ?? code.summary)" }

    public static func == (lhs: LAError, rhs: LAError) -> Bool {
        lhs.code == rhs.code && lhs.errorDescription == rhs.errorDescription
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// See ``Code/authenticationFailed``.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// See ``Code/userCancel``.
    public static var userCancel: Code { .userCancel }
    /// See ``Code/userFallback``.
    public static var userFallback: Code { .userFallback }
    /// See ``Code/systemCancel``.
    public static var systemCancel: Code { .systemCancel }
    /// See ``Code/passcodeNotSet``.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// See ``Code/biometryNotAvailable``.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// See ``Code/biometryNotEnrolled``.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// See ``Code/biometryLockout``.
    public static var biometryLockout: Code { .biometryLockout }
    /// See ``Code/appCancel``.
    public static var appCancel: Code { .appCancel }
    /// See ``Code/invalidContext``.
    public static var invalidContext: Code { .invalidContext }
    /// See ``Code/companionNotAvailable``.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// See ``Code/biometryNotPaired``.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// See ``Code/biometryDisconnected``.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// See ``Code/invalidDimensions``.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// See ``Code/notInteractive``.
    public static var notInteractive: Code { .notInteractive }
    /// The older name of ``Code/biometryNotAvailable``.
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    /// The older name of ``Code/biometryNotEnrolled``.
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    /// The older name of ``Code/biometryLockout``.
    public static var touchIDLockout: Code { .biometryLockout }
    /// The older name of ``Code/companionNotAvailable``.
    public static var watchNotAvailable: Code { .companionNotAvailable }
}

extension LAError.Code {
    /// Lets `catch LAError.userCancel` match: true when `error` is an ``LAError`` with this code,
    /// or an `NSError` in ``LAErrorDomain`` with this raw value.
    public static func ~= (match: LAError.Code, error: any Error) -> Bool {
        if let error = error as? LAError { return error.code == match }
        let bridged = error as NSError
        return bridged.domain == LAErrorDomain && bridged.code == match.rawValue
    }

    /// A short sentence for the error's description (our wording).
    var summary: String {
        switch self {
        case .authenticationFailed: "The credentials were not correct."
        case .userCancel: "The user cancelled the authentication."
        case .userFallback: "The user chose the fallback instead of authenticating."
        case .systemCancel: "The system cancelled the authentication."
        case .passcodeNotSet: "The keychain has no password, so the owner cannot be authenticated."
        case .biometryNotAvailable: "This device has no biometry."
        case .biometryNotEnrolled: "No biometric identity is enrolled."
        case .biometryLockout: "Biometry is locked after too many failed attempts."
        case .appCancel: "The app cancelled the authentication."
        case .invalidContext: "The authentication context was invalidated."
        case .companionNotAvailable: "No companion device is available."
        case .biometryNotPaired: "The biometry accessory is not paired."
        case .biometryDisconnected: "The biometry accessory is not connected."
        case .invalidDimensions: "The dimensions are not valid."
        case .notInteractive: "Authentication needs a prompt, and prompting is not allowed here."
        }
    }
}
#endif
