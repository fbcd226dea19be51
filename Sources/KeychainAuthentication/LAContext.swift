#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation
package import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An authentication session: evaluates a policy once, then lets keychain calls given this
/// context (`kSecUseAuthenticationContext`) use the result without asking again.
///
/// Mirrors LocalAuthentication's `LAContext`. On Linux, evaluating a policy asks the installed
/// ``KeychainAuthenticator`` (by default the terminal) for the password of the keychain the
/// calling task uses (`KeychainContext.current()`), and keeps the proof in the context.
///
/// ```swift
/// let context = LAContext()
/// context.touchIDAuthenticationAllowableReuseDuration = 60
/// if try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock your notes") {
///     // SecItemCopyMatching with kSecUseAuthenticationContext: context reads protected items
///     // for the next minute without prompting.
/// }
/// ```
///
/// **Reuse.** A successful authentication held by a context is reused for the same keychain
/// without prompting: when ``touchIDAuthenticationAllowableReuseDuration`` is 0 (the default),
/// until ``invalidate()`` (an evaluated context stays usable, as on Apple platforms); when it is
/// above 0, only for that many seconds after the authentication, after which the next use
/// prompts again. After ``invalidate()`` every evaluation fails with
/// ``LAError/Code/invalidContext`` and the held proof is gone.
///
/// The class is safe to share between threads: its state sits behind one lock.
public final class LAContext: NSObject, Sendable {
    struct Held {
        let credential: PresenceCredential
        let time: TimeInterval
    }

    struct State {
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var interactionNotAllowed = false
        var reuseDuration: TimeInterval = 0
        var invalidated = false
        /// Proofs by keychain identifier: one context may serve several keychains.
        var held: [Data: Held] = [:]
    }

    let state = Locked(State())
    /// Seconds on a clock that never goes back; replaced by tests.
    let clock: @Sendable () -> TimeInterval

    /// Makes a context that has not authenticated yet.
    public override convenience init() {
        self.init(clock: LAContext.monotonicSeconds)
    }

    /// Makes a context that reads time from `clock` (seconds, never going back): for tests of the
    /// reuse window, which must not sleep.
    package init(clock: @escaping @Sendable () -> TimeInterval) {
        self.clock = clock
        super.init()
    }

    /// Text saying why the app authenticates, used when an evaluation is given an empty reason
    /// (Apple shows it in its sheets; the terminal prompt shows it as the first line).
    public var localizedReason: String {
        get { state.withLock { $0.localizedReason } }
        set { state.withLock { $0.localizedReason = newValue } }
    }

    /// The title of the fallback button. Kept for source compatibility; the terminal prompt has
    /// no buttons.
    public var localizedFallbackTitle: String? {
        get { state.withLock { $0.localizedFallbackTitle } }
        set { state.withLock { $0.localizedFallbackTitle = newValue } }
    }

    /// The title of the cancel button. Kept for source compatibility; at the terminal, Ctrl-C
    /// cancels.
    public var localizedCancelTitle: String? {
        get { state.withLock { $0.localizedCancelTitle } }
        set { state.withLock { $0.localizedCancelTitle = newValue } }
    }

    /// When true, anything that would need a prompt fails with ``LAError/Code/notInteractive``
    /// instead (keychain calls: `errSecInteractionNotAllowed`, -25308); a proof the context
    /// already holds is still used.
    public var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// How long, in seconds, a successful authentication is reused after it happened; 0 (the
    /// default) means for the life of the context. Negative values become 0, values above
    /// ``LATouchIDAuthenticationMaximumAllowableReuseDuration`` become that maximum.
    public var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set {
            let clamped = newValue.isNaN ? 0 : min(max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            state.withLock { $0.reuseDuration = clamped }
        }
    }

    /// The biometry this machine offers: ``LABiometryType/none`` on Linux, unless simulated
    /// biometry is on (``KeychainAuthenticators/simulatedBiometry``), then ``LABiometryType/touchID``.
    public var biometryType: LABiometryType {
        KeychainAuthenticators.simulatedBiometry ? .touchID : .none
    }

    /// A fingerprint of the enrolled biometry, for noticing changes; always nil here, as there is
    /// no enrolment to fingerprint.
    public var evaluatedPolicyDomainState: Data? { nil }

    /// Ends the context: the held proof is dropped, and every later evaluation (and keychain call
    /// given this context) fails with ``LAError/Code/invalidContext``. Cannot be undone.
    public func invalidate() {
        state.withLock { state in
            state.invalidated = true
            state.held.removeAll()
        }
    }

    /// Whether ``invalidate()`` was called.
    package var isInvalidated: Bool { state.withLock { $0.invalidated } }

    /// The proof held for the keychain `keychainID`, if it may still be reused (see the reuse
    /// rule above); an expired one is dropped.
    package func reusableCredential(for keychainID: Data) -> PresenceCredential? {
        let now = clock()
        return state.withLock { state -> PresenceCredential? in
            guard !state.invalidated, let held = state.held[keychainID] else { return nil }
            if state.reuseDuration > 0 {
                let elapsed = now - held.time
                guard elapsed >= 0, elapsed < state.reuseDuration else {
                    state.held[keychainID] = nil
                    return nil
                }
            }
            return held.credential
        }
    }

    /// Keeps `credential` as the proof for its keychain, timed now.
    /// Keeps `credential` for reuse. Returns false, keeping nothing, when the context was
    /// invalidated meanwhile: an evaluation under way when ``invalidate()`` is called is cancelled.
    package func hold(_ credential: PresenceCredential, for keychainID: Data) -> Bool {
        let now = clock()
        return state.withLock { state in
            guard !state.invalidated else { return false }
            state.held[keychainID] = Held(credential: credential, time: now)
            return true
        }
    }

    static let monotonicSeconds: @Sendable () -> TimeInterval = {
        var now = timespec()
        // Boot time, not the monotonic clock: it keeps counting while the machine sleeps, so a
        // reuse window does not stretch across a suspend. Neither jumps when the date is set.
        clock_gettime(CLOCK_BOOTTIME, &now)
        return TimeInterval(now.tv_sec) + TimeInterval(now.tv_nsec) / 1_000_000_000
    }
}
#endif
