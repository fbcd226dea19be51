#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation

/// What kind of proof of the device owner an evaluation asks for.
///
/// Mirrors LocalAuthentication's `LAPolicy`, with Apple's raw values. On Linux the owner proves
/// presence with the keychain password: ``deviceOwnerAuthentication`` always can; the biometric
/// policies can only when simulated biometry is on (``KeychainAuthenticators/simulatedBiometry``),
/// and the companion policy never can (there is no paired watch).
public enum LAPolicy: Int, Sendable, Hashable, CaseIterable {
    /// Biometry only (Touch ID, Face ID); fails with `biometryNotAvailable` on a machine without it.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometry, a companion device or the passcode: on Linux, the keychain password.
    case deviceOwnerAuthentication = 2
    /// A paired companion device only (an Apple Watch); never available on Linux.
    case deviceOwnerAuthenticationWithCompanion = 3
    /// Biometry or a companion device, but not the passcode.
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4

    /// The older name of ``deviceOwnerAuthenticationWithCompanion`` (same raw value, 3).
    public static let deviceOwnerAuthenticationWithWatch = LAPolicy.deviceOwnerAuthenticationWithCompanion
    /// The older name of ``deviceOwnerAuthenticationWithBiometricsOrCompanion`` (same raw value, 4).
    public static let deviceOwnerAuthenticationWithBiometricsOrWatch = LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion
}

/// Which biometry a device has.
///
/// Mirrors LocalAuthentication's `LABiometryType`, with Apple's raw values. On Linux this is
/// `.none`, unless simulated biometry is on (then ``touchID``, see
/// ``KeychainAuthenticators/simulatedBiometry``).
public enum LABiometryType: Int, Sendable, Hashable, CaseIterable {
    /// No biometry.
    case none = 0
    /// A fingerprint sensor.
    case touchID = 1
    /// Face recognition.
    case faceID = 2
    /// Iris recognition (Vision Pro).
    case opticID = 4
}

/// The error domain of ``LAError`` when it is seen as an `NSError`: `"com.apple.LocalAuthentication"`,
/// as on Apple platforms, so code comparing domains keeps working.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// The longest reuse window ``LAContext/touchIDAuthenticationAllowableReuseDuration`` accepts, in
/// seconds (five minutes, Apple's value); longer settings are cut down to it.
public let LATouchIDAuthenticationMaximumAllowableReuseDuration: TimeInterval = 300

extension LAPolicy {
    /// What satisfies this policy on Linux.
    enum LinuxRequirement {
        /// The keychain password.
        case password
        /// Biometry, which only simulated biometry provides (with the keychain password).
        case biometry
        /// A companion device, which Linux never has.
        case companion
    }

    var linuxRequirement: LinuxRequirement {
        switch self {
        case .deviceOwnerAuthentication: .password
        // Either alternative would do; biometry is the one that can be simulated.
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrCompanion: .biometry
        case .deviceOwnerAuthenticationWithCompanion: .companion
        }
    }

    /// Why this policy cannot be evaluated on this machine at all, or nil when it can.
    func unavailability(simulatedBiometry: Bool) -> LAError? {
        switch linuxRequirement {
        case .password: nil
        case .biometry: simulatedBiometry ? nil : LAError(.biometryNotAvailable)
        case .companion: LAError(.companionNotAvailable)
        }
    }
}
#endif
