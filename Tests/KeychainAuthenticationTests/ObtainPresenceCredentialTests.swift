import Foundation
import KeychainAuthentication
import KeychainStore
import KeychainTestSupport
import Testing

/// The entry point the SecItem layer calls: who is asked, how often, and what each answer gives.
@Suite("Obtaining proof of presence")
struct ObtainPresenceCredentialTests {
    let password = "correct horse"

    func obtain(_ keychain: TestKeychain, context: LAContext? = nil, policy: LAPolicy = .deviceOwnerAuthentication,
                reason: String = "Read the API token", interactionAllowed: Bool = true) throws(LAError) -> PresenceCredential {
        try obtainPresenceCredential(for: keychain.file, context: context, policy: policy, reason: reason,
                                     interactionAllowed: interactionAllowed)
    }

    @Test("The right password from the authenticator gives a credential for that keychain")
    func rightPassword() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let credential = try asking(user) { try obtain(keychain) }
        #expect(credential.keychainID == keychain.file.identifier)
        #expect(user.requests.count == 1)
    }

    @Test("The authenticator is given the reason, the policy and the attempt number")
    func requestContents() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        _ = try asking(user) { try obtain(keychain, reason: "Show the saved card") }
        #expect(user.requests == [AuthenticationRequest(reason: "Show the saved card", policy: .deviceOwnerAuthentication,
                                                        attempt: 1, previousAttemptFailed: false)])
    }

    @Test("A wrong password is asked again, saying the previous attempt failed, and a right one then succeeds")
    func wrongThenRight() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password("wrong"), .password(password))
        _ = try asking(user) { try obtain(keychain) }
        #expect(user.requests.map(\.attempt) == [1, 2])
        #expect(user.requests.map(\.previousAttemptFailed) == [false, true])
    }

    @Test("Three wrong passwords fail with authenticationFailed, and the user is asked exactly three times")
    func threeWrong() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password("wrong"))
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain) } } == .authenticationFailed)
        #expect(user.requests.map(\.attempt) == [1, 2, 3])
    }

    @Test("Cancelling fails with userCancel and asks no more")
    func cancel() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.cancel, .password(password))
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain) } } == .userCancel)
        #expect(user.requests.count == 1)
    }

    @Test("Cancelling after a wrong password still fails with userCancel")
    func cancelAfterWrong() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password("wrong"), .cancel)
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain) } } == .userCancel)
        #expect(user.requests.count == 2)
    }

    @Test("An authenticator that cannot ask anyone fails with notInteractive")
    func authenticatorNotInteractive() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.notInteractive)
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain) } } == .notInteractive)
    }

    @Test("The non-interactive authenticator fails with notInteractive")
    func nonInteractiveAuthenticator() throws {
        let keychain = try makeKeychain(password: password)
        let code = KeychainAuthenticators.withAuthenticator(.nonInteractive, simulatedBiometry: false) {
            laError { () throws(LAError) in try obtain(keychain) }
        }
        #expect(code == .notInteractive)
    }

    @Test("Interaction not allowed by the caller fails with notInteractive without calling the authenticator")
    func interactionNotAllowedByCaller() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain, interactionAllowed: false) } } == .notInteractive)
        #expect(user.requests.isEmpty)
    }

    @Test("A context with interactionNotAllowed fails with notInteractive without calling the authenticator")
    func interactionNotAllowedByContext() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let context = LAContext()
        context.interactionNotAllowed = true
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain, context: context) } } == .notInteractive)
        #expect(user.requests.isEmpty)
    }

    @Test("A keychain without a password fails with passcodeNotSet without calling the authenticator")
    func noPassword() throws {
        let keychain = try makeKeychain(password: nil)
        let user = ScriptedUser(.password("anything"))
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain) } } == .passcodeNotSet)
        #expect(user.requests.isEmpty)
    }

    @Test("A biometric policy fails with biometryNotAvailable without simulated biometry, asking no one",
          arguments: [LAPolicy.deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrCompanion])
    func biometryNotAvailable(policy: LAPolicy) throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        #expect(asking(user) { laError { () throws(LAError) in try obtain(keychain, policy: policy) } } == .biometryNotAvailable)
        #expect(user.requests.isEmpty)
    }

    @Test("With simulated biometry a biometric policy is satisfied by the keychain password",
          arguments: [LAPolicy.deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrCompanion])
    func simulatedBiometry(policy: LAPolicy) throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let credential = try asking(user, simulatedBiometry: true) { try obtain(keychain, policy: policy) }
        #expect(credential.keychainID == keychain.file.identifier)
        #expect(user.requests.map(\.policy) == [policy])
    }

    @Test("The companion policy fails with companionNotAvailable, even with simulated biometry")
    func companion() throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let code = asking(user, simulatedBiometry: true) {
            laError { () throws(LAError) in try obtain(keychain, policy: .deviceOwnerAuthenticationWithCompanion) }
        }
        #expect(code == .companionNotAvailable)
    }

    @Test("A proof a context holds does not open a biometry-only policy without simulated biometry")
    func heldProofDoesNotSatisfyBiometry() throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        _ = try asking(ScriptedUser(.password(password))) { try obtain(keychain, context: context) }
        let code = asking(ScriptedUser(.password(password))) {
            laError { () throws(LAError) in try obtain(keychain, context: context, policy: .deviceOwnerAuthenticationWithBiometrics) }
        }
        #expect(code == .biometryNotAvailable)
    }
}
