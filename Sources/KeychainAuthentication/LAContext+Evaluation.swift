#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation
import KeychainStore
import Dispatch

extension LAContext {
    /// Says whether ``evaluatePolicy(_:localizedReason:reply:)`` could succeed here, without
    /// prompting.
    ///
    /// Mirrors `LAContext.canEvaluatePolicy(_:error:)`. On Linux: the context must not be
    /// invalidated; biometric policies need simulated biometry, companion policies are never
    /// available; and the keychain the task uses must have a password.
    ///
    /// ```swift
    /// var error: NSError?
    /// if !LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: &error) {
    ///     print(error?.code == LAError.passcodeNotSet.rawValue)   // the keychain has no password
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - policy: the policy to check.
    ///   - error: receives the ``LAError`` (as an `NSError`) saying why not; may be nil.
    /// - Returns: whether the policy can be evaluated.
    public func canEvaluatePolicy(_ policy: LAPolicy, error: UnsafeMutablePointer<NSError?>?) -> Bool {
        guard let problem = evaluability(of: policy, simulatedBiometry: KeychainAuthenticators.simulatedBiometry) else {
            return true
        }
        error?.pointee = problem as NSError
        return false
    }

    /// Proves the device owner is present, then calls `reply` on a background queue.
    ///
    /// Mirrors `LAContext.evaluatePolicy(_:localizedReason:reply:)`. On Linux, the installed
    /// ``KeychainAuthenticator`` is asked for the password of the keychain the calling task uses
    /// (up to three tries); a proof this context already holds is reused without asking (see
    /// ``LAContext`` for the reuse rule). The keychain, the authenticator and the biometry
    /// setting are taken from the calling task before the work moves to the background queue.
    ///
    /// - Parameters:
    ///   - policy: what kind of proof is needed.
    ///   - localizedReason: the text shown with the prompt; when empty, ``localizedReason``.
    ///   - reply: called once, on a background queue, with `true, nil` on success or
    ///     `false` and an ``LAError``.
    public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String,
                               reply: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        let evaluation = prepareEvaluation(policy, localizedReason: localizedReason)
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try evaluation.run()
                reply(true, nil)
            } catch {
                reply(false, error)
            }
        }
    }

    /// Proves the device owner is present; the async form of
    /// ``evaluatePolicy(_:localizedReason:reply:)``.
    ///
    /// - Returns: `true` (failure throws).
    /// - Throws: ``LAError``, e.g. ``LAError/Code/userCancel`` when the user cancels.
    public func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        let evaluation = prepareEvaluation(policy, localizedReason: localizedReason)
        // The prompt blocks a thread for as long as the user takes: keep it off the cooperative pool.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    try evaluation.run()
                    continuation.resume(returning: true)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Why `policy` cannot be evaluated now, or nil when it can.
    func evaluability(of policy: LAPolicy, simulatedBiometry: Bool) -> LAError? {
        if isInvalidated { return LAError(.invalidContext) }
        if let unavailable = policy.unavailability(simulatedBiometry: simulatedBiometry) { return unavailable }
        switch currentKeychain() {
        case .failure(let error): return error
        case .success(let file): return file.hasPassword ? nil : LAError(.passcodeNotSet)
        }
    }

    /// Everything one evaluation needs, captured on the calling thread.
    struct Evaluation: Sendable {
        let context: LAContext
        let keychain: Result<KeychainFile, LAError>
        let policy: LAPolicy
        let reason: String
        let environment: AuthenticationEnvironment

        func run() throws(LAError) {
            _ = try obtainPresenceCredential(for: keychain.get(), context: context, policy: policy, reason: reason,
                                             interactionAllowed: true, environment: environment)
        }
    }

    func prepareEvaluation(_ policy: LAPolicy, localizedReason reason: String) -> Evaluation {
        Evaluation(context: self, keychain: currentKeychain(), policy: policy,
                   reason: reason.isEmpty ? localizedReason : reason, environment: .current)
    }

    /// The keychain of the calling task. One that cannot be opened has no usable password, which
    /// is what ``LAError/Code/passcodeNotSet`` says; the engine's status is kept as the
    /// underlying error.
    private func currentKeychain() -> Result<KeychainFile, LAError> {
        do {
            return .success(try KeychainContext.current().file)
        } catch {
            return .failure(LAError(.passcodeNotSet, userInfo: [NSUnderlyingErrorKey: engineError(error)]))
        }
    }
}
#endif
