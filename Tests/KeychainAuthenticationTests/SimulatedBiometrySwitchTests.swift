@testable import KeychainAuthentication
import Testing

/// The simulated-biometry switch lets the keychain password stand in for a fingerprint. A
/// release build must not honour it from one stray variable; these tests ask the decision as a
/// release build would, from this debug test build.
@Suite("Simulated biometry: debug builds only, or with a second explicit variable")
struct SimulatedBiometrySwitchTests {
    static let on = ["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "1"]

    func decision(_ environment: [String: String], debug: Bool) -> SimulatedBiometryDecision {
        KeychainAuthenticators.simulatedBiometryDecision(environment: environment, isDebugBuild: debug)
    }

    @Test("A release build ignores SWIFT_KEYCHAIN_SIMULATED_BIOMETRY alone, in every spelling")
    func releaseRefusesTheSwitchAlone() {
        for value in ["1", "yes", "true", "TRUE"] {
            #expect(decision(["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": value], debug: false) == .refusedInRelease)
        }
    }

    @Test("A release build honours it only with SWIFT_KEYCHAIN_ALLOW_SIMULATED_BIOMETRY=for-tests-only, exactly")
    func releaseNeedsTheExactSecondVariable() {
        let allow = "SWIFT_KEYCHAIN_ALLOW_SIMULATED_BIOMETRY"
        #expect(decision(Self.on.merging([allow: "for-tests-only"]) { $1 }, debug: false) == .on)
        for near in ["1", "yes", "true", "FOR-TESTS-ONLY", "for-tests-only ", ""] {
            #expect(decision(Self.on.merging([allow: near]) { $1 }, debug: false) == .refusedInRelease, "\(near)")
        }
        // The second variable alone turns nothing on.
        #expect(decision([allow: "for-tests-only"], debug: false) == .off)
    }

    @Test("A debug build honours the switch alone; off stays off")
    func debugBuild() {
        #expect(decision(Self.on, debug: true) == .on)
        #expect(decision([:], debug: true) == .off)
        #expect(decision(["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "0"], debug: true) == .off)
        #expect(decision([:], debug: false) == .off)
    }

    @Test("Turning it on, or refusing it, comes with a warning line; off says nothing")
    func notices() {
        #expect(SimulatedBiometryDecision.off.notice == nil)
        let on = SimulatedBiometryDecision.on.notice ?? ""
        #expect(on.hasPrefix("warning: ") && on.hasSuffix("\n") && on.filter { $0 == "\n" }.count == 1)
        #expect(SimulatedBiometryDecision.refusedInRelease.notice?.contains("for-tests-only") == true)
    }

    @Test("This test build is a debug build, so the existing tests that set the switch keep working")
    func testsRunDebug() {
        #expect(KeychainAuthenticators.isDebugBuild)
    }
}
