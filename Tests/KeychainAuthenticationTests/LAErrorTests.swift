import Foundation
@testable import KeychainAuthentication
import KeychainStore
import Testing

@Suite("LAError, LAPolicy and the other LocalAuthentication values")
struct LAErrorTests {
    static let appleCodes: [(LAError.Code, Int)] = [
        (.authenticationFailed, -1), (.userCancel, -2), (.userFallback, -3), (.systemCancel, -4),
        (.passcodeNotSet, -5), (.biometryNotAvailable, -6), (.biometryNotEnrolled, -7), (.biometryLockout, -8),
        (.appCancel, -9), (.invalidContext, -10), (.companionNotAvailable, -11), (.biometryNotPaired, -12),
        (.biometryDisconnected, -13), (.invalidDimensions, -14), (.notInteractive, -1004),
    ]

    @Test("Every LAError code has Apple's numeric value", arguments: appleCodes)
    func codeValue(code: LAError.Code, value: Int) {
        #expect(code.rawValue == value)
        #expect(LAError(code).errorCode == value)
    }

    @Test("The code table covers every code")
    func tableIsComplete() {
        #expect(Set(Self.appleCodes.map(\.0)) == Set(LAError.Code.allCases))
    }

    @Test("The older Touch ID and watch names are the same codes as the biometry and companion ones")
    func olderNames() {
        #expect(LAError.Code.touchIDNotAvailable == .biometryNotAvailable)
        #expect(LAError.Code.touchIDNotEnrolled == .biometryNotEnrolled)
        #expect(LAError.Code.touchIDLockout == .biometryLockout)
        #expect(LAError.Code.watchNotAvailable == .companionNotAvailable)
        #expect(LAError.touchIDLockout == .biometryLockout)
    }

    @Test("LAError's domain is com.apple.LocalAuthentication, also as an NSError")
    func domain() {
        #expect(LAErrorDomain == "com.apple.LocalAuthentication")
        #expect(LAError.errorDomain == LAErrorDomain)
        let bridged = LAError(.userCancel) as NSError
        #expect(bridged.domain == "com.apple.LocalAuthentication")
        #expect(bridged.code == -2)
    }

    @Test("catch LAError.userCancel matches a thrown userCancel and nothing else")
    func catchPattern() {
        func outcome(_ code: LAError.Code) -> String {
            do {
                throw LAError(code)
            } catch LAError.userCancel {
                return "cancel"
            } catch {
                return "other"
            }
        }
        #expect(outcome(.userCancel) == "cancel")
        #expect(outcome(.authenticationFailed) == "other")
    }

    @Test("catch LAError.notInteractive also matches an NSError in the LocalAuthentication domain")
    func catchPatternNSError() {
        let error: any Error = NSError(domain: LAErrorDomain, code: -1004)
        #expect(LAError.notInteractive ~= error)
        #expect(!(LAError.userCancel ~= error))
        #expect(!(LAError.userCancel ~= NSError(domain: "other", code: -2)))
    }

    @Test("User info given at creation is kept, and a description is supplied when none is given")
    func userInfo() {
        let error = LAError(.appCancel, userInfo: ["key": "value"])
        #expect(error.errorUserInfo["key"] as? String == "value")
        #expect(error.errorDescription?.isEmpty == false)
        #expect(LAError(.appCancel, userInfo: [NSLocalizedDescriptionKey: "mine"]).errorDescription == "mine")
    }

    @Test("LAPolicy has Apple's raw values, the watch names equal to the companion ones")
    func policyValues() {
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAPolicy.deviceOwnerAuthentication.rawValue == 2)
        #expect(LAPolicy.deviceOwnerAuthenticationWithCompanion.rawValue == 3)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion.rawValue == 4)
        #expect(LAPolicy.deviceOwnerAuthenticationWithWatch.rawValue == 3)
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometricsOrWatch.rawValue == 4)
    }

    @Test("LABiometryType has Apple's raw values")
    func biometryTypeValues() {
        #expect(LABiometryType.none.rawValue == 0)
        #expect(LABiometryType.touchID.rawValue == 1)
        #expect(LABiometryType.faceID.rawValue == 2)
        #expect(LABiometryType.opticID.rawValue == 4)
    }

    @Test("The maximum reuse duration is 300 seconds")
    func maximumReuse() {
        #expect(LATouchIDAuthenticationMaximumAllowableReuseDuration == 300)
    }

    static let statuses: [(LAError.Code, Int32)] = [
        (.userCancel, SecStatus.userCanceled), (.notInteractive, SecStatus.interactionNotAllowed),
        (.authenticationFailed, SecStatus.authFailed), (.invalidContext, SecStatus.authFailed),
        (.passcodeNotSet, SecStatus.authFailed), (.biometryNotAvailable, SecStatus.authFailed),
        (.companionNotAvailable, SecStatus.authFailed), (.appCancel, SecStatus.authFailed),
    ]

    @Test("LAErrors map to OSStatus as Apple's client maps them", arguments: statuses)
    func statusMapping(code: LAError.Code, status: Int32) {
        #expect(keychainStatus(for: LAError(code)) == status)
    }

    @Test("Apple's private parameter error maps to errSecParam")
    func parameterStatus() {
        #expect(keychainStatus(forLAErrorCode: -1001) == SecStatus.param)
    }

    @Test("An engine failure under an LAError keeps the engine's status")
    func underlyingStatus() {
        let error = LAError(.authenticationFailed, userInfo: [NSUnderlyingErrorKey: NSError(domain: "NSOSStatusErrorDomain", code: Int(SecStatus.io))])
        #expect(keychainStatus(for: error) == SecStatus.io)
    }
}
