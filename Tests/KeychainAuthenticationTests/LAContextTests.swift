import Foundation
@testable import KeychainAuthentication
import KeychainStore
import KeychainTestSupport
import Testing

/// LAContext: evaluation, the reuse rule, invalidation and the checks that never prompt.
@Suite("LAContext")
struct LAContextTests {
    let password = "tr0ub4dor"

    func obtain(_ keychain: TestKeychain, _ context: LAContext, _ user: ScriptedUser) -> LAError.Code? {
        asking(user) {
            laError { () throws(LAError) in
                try obtainPresenceCredential(for: keychain.file, context: context, policy: .deviceOwnerAuthentication,
                                             reason: "r", interactionAllowed: true)
            }
        }
    }

    @Test("With reuse duration 0 a held authentication is reused without prompting until invalidate")
    func reuseUntilInvalidate() throws {
        let keychain = try makeKeychain(password: password)
        let clock = ManualClock()
        let context = LAContext(clock: clock.read)
        let user = ScriptedUser(.password(password))
        #expect(obtain(keychain, context, user) == nil)
        clock.advance(by: 24 * 3600)
        #expect(obtain(keychain, context, user) == nil)
        #expect(user.requests.count == 1)
        context.invalidate()
        #expect(obtain(keychain, context, user) == .invalidContext)
        #expect(user.requests.count == 1)
    }

    @Test("With a reuse duration the authentication is reused inside the window and asked again after it")
    func reuseExpires() throws {
        let keychain = try makeKeychain(password: password)
        let clock = ManualClock()
        let context = LAContext(clock: clock.read)
        context.touchIDAuthenticationAllowableReuseDuration = 60
        let user = ScriptedUser(.password(password))
        #expect(obtain(keychain, context, user) == nil)
        clock.advance(by: 59)
        #expect(obtain(keychain, context, user) == nil)
        #expect(user.requests.count == 1)
        clock.advance(by: 1)
        #expect(obtain(keychain, context, user) == nil)
        #expect(user.requests.count == 2)
    }

    @Test("invalidate() while the user is answering cancels the evaluation: appCancel, nothing held")
    func invalidateDuringPromptCancels() throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        // The user types the right password, but the app invalidates the context meanwhile.
        let user = ProgrammableAuthenticator.programmable { _ in
            context.invalidate()
            return .password(self.password)
        }
        let outcome = KeychainAuthenticators.withAuthenticator(user, simulatedBiometry: false) {
            laError { () throws(LAError) in
                try obtainPresenceCredential(for: keychain.file, context: context, policy: .deviceOwnerAuthentication,
                                             reason: "r", interactionAllowed: true)
            }
        }
        #expect(outcome == .appCancel)
        #expect(context.reusableCredential(for: keychain.file.identifier) == nil)
    }

    @Test("After invalidate the held credential is gone and evaluating fails with invalidContext")
    func invalidateDropsCredential() async throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        #expect(obtain(keychain, context, ScriptedUser(.password(password))) == nil)
        #expect(context.reusableCredential(for: keychain.file.identifier) != nil)
        context.invalidate()
        #expect(context.reusableCredential(for: keychain.file.identifier) == nil)
        let user = ScriptedUser(.password(password))
        await #expect(throws: LAError(.invalidContext)) {
            try await keychain.run {
                try await KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: false) {
                    try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "again")
                }
            }
        }
        #expect(user.requests.isEmpty)
    }

    @Test("A held authentication is used even when the context no longer allows interaction")
    func heldProofWithoutInteraction() throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        #expect(obtain(keychain, context, ScriptedUser(.password(password))) == nil)
        context.interactionNotAllowed = true
        let user = ScriptedUser(.cancel)
        #expect(obtain(keychain, context, user) == nil)
        #expect(user.requests.isEmpty)
    }

    @Test("An authentication held for one keychain is not reused for another")
    func perKeychain() throws {
        let first = try makeKeychain(password: password)
        let second = try makeKeychain(password: password)
        let context = LAContext()
        #expect(obtain(first, context, ScriptedUser(.password(password))) == nil)
        let user = ScriptedUser(.password(password))
        #expect(obtain(second, context, user) == nil)
        #expect(user.requests.count == 1)
    }

    @Test("A failed evaluation leaves nothing to reuse")
    func failureHoldsNothing() throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        #expect(obtain(keychain, context, ScriptedUser(.cancel)) == .userCancel)
        #expect(context.reusableCredential(for: keychain.file.identifier) == nil)
    }

    @Test("The reuse duration is clamped between 0 and the 300-second maximum",
          arguments: [(-5.0, 0.0), (0, 0), (42, 42), (300, 300), (301, 300), (.infinity, 300), (.nan, 0)])
    func reuseClamp(set: Double, expected: Double) {
        let context = LAContext()
        context.touchIDAuthenticationAllowableReuseDuration = set
        #expect(context.touchIDAuthenticationAllowableReuseDuration == expected)
    }

    @Test("A new context has Apple's defaults")
    func defaults() {
        let context = LAContext()
        #expect(context.localizedReason == "")
        #expect(context.localizedFallbackTitle == nil)
        #expect(context.localizedCancelTitle == nil)
        #expect(context.interactionNotAllowed == false)
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        #expect(context.evaluatedPolicyDomainState == nil)
    }

    @Test("biometryType is none without simulated biometry and touchID with it")
    func biometryType() {
        let context = LAContext()
        KeychainAuthenticators.withAuthenticator(.nonInteractive, simulatedBiometry: false) {
            #expect(context.biometryType == .none)
        }
        KeychainAuthenticators.withAuthenticator(.nonInteractive, simulatedBiometry: true) {
            #expect(context.biometryType == .touchID)
        }
    }

    @Test("evaluatePolicy calls its reply once, off the calling thread, with success for the right password")
    func evaluateReplySuccess() async throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let context = LAContext()
        let caller = pthread_self()
        let (success, error, sameThread) = await withCheckedContinuation { continuation in
            keychain.run {
                asking(user) {
                    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { success, error in
                        continuation.resume(returning: (success, error, pthread_equal(pthread_self(), caller) != 0))
                    }
                }
            }
        }
        #expect(success)
        #expect(error == nil)
        #expect(!sameThread)
        #expect(user.requests.map(\.reason) == ["Unlock"])
        #expect(context.reusableCredential(for: keychain.file.identifier) != nil)
    }

    @Test("evaluatePolicy replies false with userCancel when the user cancels")
    func evaluateReplyCancel() async throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        let (success, error) = await withCheckedContinuation { continuation in
            keychain.run {
                asking(ScriptedUser(.cancel)) {
                    context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock") { success, error in
                        continuation.resume(returning: (success, error))
                    }
                }
            }
        }
        #expect(!success)
        #expect((error as? LAError)?.code == .userCancel)
    }

    @Test("The async evaluatePolicy returns true for the right password and uses the context's reason when given none")
    func evaluateAsync() async throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password(password))
        let context = LAContext()
        context.localizedReason = "Open the vault"
        let result = try await keychain.run {
            try await KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: false) {
                try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "")
            }
        }
        #expect(result)
        #expect(user.requests.map(\.reason) == ["Open the vault"])
    }

    @Test("The async evaluatePolicy throws authenticationFailed after three wrong passwords")
    func evaluateAsyncWrong() async throws {
        let keychain = try makeKeychain(password: password)
        let user = ScriptedUser(.password("nope"))
        await #expect(throws: LAError(.authenticationFailed)) {
            try await keychain.run {
                try await KeychainAuthenticators.withAuthenticator(user.authenticator, simulatedBiometry: false) {
                    try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "x")
                }
            }
        }
        #expect(user.requests.count == 3)
    }

    func canEvaluate(_ keychain: TestKeychain, _ context: LAContext, _ policy: LAPolicy,
                     simulatedBiometry: Bool = false) -> (Bool, Int?) {
        keychain.run {
            KeychainAuthenticators.withAuthenticator(.nonInteractive, simulatedBiometry: simulatedBiometry) {
                var error: NSError?
                let result = context.canEvaluatePolicy(policy, error: &error)
                #expect(error == nil || error?.domain == LAErrorDomain)
                return (result, error?.code)
            }
        }
    }

    @Test("canEvaluatePolicy is true for deviceOwnerAuthentication when the keychain has a password")
    func canEvaluateWithPassword() throws {
        let keychain = try makeKeychain(password: password)
        #expect(canEvaluate(keychain, LAContext(), .deviceOwnerAuthentication) == (true, nil))
    }

    @Test("canEvaluatePolicy is false with passcodeNotSet when the keychain has no password")
    func canEvaluateWithoutPassword() throws {
        let keychain = try makeKeychain(password: nil)
        #expect(canEvaluate(keychain, LAContext(), .deviceOwnerAuthentication) == (false, LAError.Code.passcodeNotSet.rawValue))
    }

    @Test("canEvaluatePolicy for biometrics is false with biometryNotAvailable, and true with simulated biometry")
    func canEvaluateBiometrics() throws {
        let keychain = try makeKeychain(password: password)
        #expect(canEvaluate(keychain, LAContext(), .deviceOwnerAuthenticationWithBiometrics)
                == (false, LAError.Code.biometryNotAvailable.rawValue))
        #expect(canEvaluate(keychain, LAContext(), .deviceOwnerAuthenticationWithBiometrics, simulatedBiometry: true) == (true, nil))
    }

    @Test("canEvaluatePolicy on an invalidated context is false with invalidContext")
    func canEvaluateInvalidated() throws {
        let keychain = try makeKeychain(password: password)
        let context = LAContext()
        context.invalidate()
        #expect(canEvaluate(keychain, context, .deviceOwnerAuthentication) == (false, LAError.Code.invalidContext.rawValue))
    }

    @Test("canEvaluatePolicy accepts a nil error pointer")
    func canEvaluateNilPointer() throws {
        let keychain = try makeKeychain(password: nil)
        let result = keychain.run { LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil) }
        #expect(!result)
    }
}
