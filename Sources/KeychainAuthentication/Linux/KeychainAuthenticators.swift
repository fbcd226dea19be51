#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore
import KeychainTerminal
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's choice of ``KeychainAuthenticator``, and whether biometry is simulated.
///
/// Without configuration: the terminal prompt when the process has a terminal (`/dev/tty` opens),
/// else the non-interactive authenticator. The environment can force either with
/// `SWIFT_KEYCHAIN_AUTHENTICATOR=terminal` or `=none`; an app replaces it with ``install(_:)``,
/// and a task (a test, a request handler) with ``withAuthenticator(_:simulatedBiometry:_:)``.
public enum KeychainAuthenticators {
    /// The environment variable that chooses the default authenticator (`terminal` or `none`).
    public static let authenticatorVariable = "SWIFT_KEYCHAIN_AUTHENTICATOR"
    /// The environment variable that turns simulated biometry on (`1`). Honoured in debug
    /// builds; a release build also needs ``allowSimulatedBiometryVariable``.
    public static let simulatedBiometryVariable = "SWIFT_KEYCHAIN_SIMULATED_BIOMETRY"
    /// The second variable a release build needs before it honours ``simulatedBiometryVariable``:
    /// it must say `for-tests-only`.
    public static let allowSimulatedBiometryVariable = "SWIFT_KEYCHAIN_ALLOW_SIMULATED_BIOMETRY"
    static let allowSimulatedBiometryValue = "for-tests-only"

    private struct ProcessState {
        var authenticator: (any KeychainAuthenticator)?
        var simulatedBiometry: Bool?
    }

    private static let processState = Locked(ProcessState())
    @TaskLocal private static var taskAuthenticator: (any KeychainAuthenticator)?
    @TaskLocal private static var taskSimulatedBiometry: Bool?

    /// The authenticator keychain calls of the current task use: the task's own, else the one
    /// installed for the process, else the default described above.
    public static var current: any KeychainAuthenticator {
        if let authenticator = taskAuthenticator { return authenticator }
        return processState.withLock { state in
            if let authenticator = state.authenticator { return authenticator }
            let chosen = defaultAuthenticator(environment: ProcessInfo.processInfo.environment,
                                              terminalAvailable: TerminalPasswordReader.terminalAvailable)
            state.authenticator = chosen
            return chosen
        }
    }

    /// Makes `authenticator` the one every keychain call of this process uses (tasks inside
    /// ``withAuthenticator(_:simulatedBiometry:_:)`` excepted).
    ///
    /// ```swift
    /// KeychainAuthenticators.install(.nonInteractive)   // a daemon: never prompt
    /// ```
    public static func install(_ authenticator: any KeychainAuthenticator) {
        processState.withLock { $0.authenticator = authenticator }
    }

    /// Forgets the installed authenticator and the simulated-biometry setting, so the defaults
    /// (and the environment) apply again.
    public static func reset() {
        processState.withLock { $0 = ProcessState() }
    }

    /// Whether biometric policies can be satisfied (like the iOS Simulator's "Enrolled" switch).
    ///
    /// Linux has no biometric hardware path, so by default a biometry-only policy fails with
    /// ``LAError/Code/biometryNotAvailable``, as on a device without biometry. With this on,
    /// biometric policies are satisfied by the keychain password, and ``LAContext/biometryType``
    /// reports ``LABiometryType/touchID``: a Linux machine is a computer, and the biometry
    /// computers (Macs) have is Touch ID, so code that words its prompt by biometry type reads
    /// naturally.
    ///
    /// From the environment, `SWIFT_KEYCHAIN_SIMULATED_BIOMETRY=1` turns it on in debug builds;
    /// a release build also needs `SWIFT_KEYCHAIN_ALLOW_SIMULATED_BIOMETRY=for-tests-only`, so a
    /// variable left in a deployed service's environment cannot quietly let a password stand in
    /// for a fingerprint. Either way the process says so on standard error, once.
    public static var simulatedBiometry: Bool {
        get {
            if let value = taskSimulatedBiometry { return value }
            return processState.withLock { state in
                if let value = state.simulatedBiometry { return value }
                let decision = simulatedBiometryDecision(environment: ProcessInfo.processInfo.environment,
                                                         isDebugBuild: isDebugBuild)
                SimulatedBiometryNotice.announceOnce(decision)
                state.simulatedBiometry = decision.isOn
                return decision.isOn
            }
        }
        set { processState.withLock { $0.simulatedBiometry = newValue } }
    }

    /// Runs `body` with keychain calls of this task (and its child tasks) using `authenticator`,
    /// and, when given, `simulatedBiometry`, leaving the rest of the process alone. Tests use this
    /// to run in parallel, each with its own scripted authenticator.
    public static func withAuthenticator<T>(_ authenticator: any KeychainAuthenticator, simulatedBiometry: Bool? = nil,
                                            _ body: () throws -> T) rethrows -> T {
        try $taskAuthenticator.withValue(authenticator) {
            try $taskSimulatedBiometry.withValue(simulatedBiometry ?? taskSimulatedBiometry, operation: body)
        }
    }

    /// Async form of ``withAuthenticator(_:simulatedBiometry:_:)``.
    public static func withAuthenticator<T>(_ authenticator: any KeychainAuthenticator, simulatedBiometry: Bool? = nil,
                                            _ body: () async throws -> T) async rethrows -> T {
        try await $taskAuthenticator.withValue(authenticator) {
            try await $taskSimulatedBiometry.withValue(simulatedBiometry ?? taskSimulatedBiometry, operation: body)
        }
    }

    /// The default authenticator for an environment: `SWIFT_KEYCHAIN_AUTHENTICATOR` when it names
    /// one, else the terminal when there is one, else none.
    static func defaultAuthenticator(environment: [String: String], terminalAvailable: () -> Bool) -> any KeychainAuthenticator {
        switch environment[authenticatorVariable]?.lowercased() {
        case "terminal": return TerminalAuthenticator()
        case "none": return NonInteractiveAuthenticator()
        default: return terminalAvailable() ? TerminalAuthenticator() : NonInteractiveAuthenticator()
        }
    }

    /// Whether this module was compiled for debugging.
    static var isDebugBuild: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// What the environment's simulated-biometry switch amounts to in a build of the given
    /// kind. A pure function, so the release rule can be tested from a debug build.
    static func simulatedBiometryDecision(environment: [String: String], isDebugBuild: Bool) -> SimulatedBiometryDecision {
        guard let value = environment[simulatedBiometryVariable]?.lowercased(), ["1", "yes", "true"].contains(value) else {
            return .off
        }
        if isDebugBuild { return .on }
        // Exact and case-sensitive: only someone who read the documentation types it.
        guard environment[allowSimulatedBiometryVariable] == allowSimulatedBiometryValue else { return .refusedInRelease }
        return .on
    }
}

/// The outcome of the simulated-biometry switch in the environment.
enum SimulatedBiometryDecision: Equatable, Sendable {
    /// Not asked for.
    case off
    /// Asked for and honoured.
    case on
    /// Asked for in a release build without the second variable: ignored.
    case refusedInRelease

    var isOn: Bool { self == .on }

    /// The one line the process writes about it, if any.
    var notice: String? {
        switch self {
        case .off:
            return nil
        case .on:
            return "warning: simulated biometry is on (\(KeychainAuthenticators.simulatedBiometryVariable)): "
                + "the keychain password stands in for biometry; never set this outside tests\n"
        case .refusedInRelease:
            return "warning: \(KeychainAuthenticators.simulatedBiometryVariable) is ignored in this release build; "
                + "tests that need it also set \(KeychainAuthenticators.allowSimulatedBiometryVariable)="
                + "\(KeychainAuthenticators.allowSimulatedBiometryValue)\n"
        }
    }
}

/// Writes the decision's line to standard error the first time the environment is consulted in
/// this process (``KeychainAuthenticators/reset()`` makes it consult again, but not say it twice).
private enum SimulatedBiometryNotice {
    private static let announced = Locked(false)

    static func announceOnce(_ decision: SimulatedBiometryDecision) {
        guard let notice = decision.notice else { return }
        let first = announced.withLock { announced in
            defer { announced = true }
            return !announced
        }
        guard first else { return }
        let bytes = Array(notice.utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

/// The snapshot of authenticator and biometry setting one evaluation uses. Taken on the calling
/// thread, because task-local choices do not follow work onto a dispatch queue.
struct AuthenticationEnvironment: Sendable {
    var authenticator: any KeychainAuthenticator
    var simulatedBiometry: Bool

    static var current: AuthenticationEnvironment {
        AuthenticationEnvironment(authenticator: KeychainAuthenticators.current,
                                  simulatedBiometry: KeychainAuthenticators.simulatedBiometry)
    }
}

/// An authenticator that never asks anyone: every request is ``AuthenticationReply/notInteractive``,
/// so items needing authentication fail with `errSecInteractionNotAllowed` (-25308). For daemons
/// and batch jobs.
public struct NonInteractiveAuthenticator: KeychainAuthenticator {
    /// Makes one.
    public init() {}

    /// Always ``AuthenticationReply/notInteractive``.
    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply { .notInteractive }
}

/// An authenticator that answers with a closure: for apps with their own password dialog, and
/// for tests that script the user.
public struct ProgrammableAuthenticator: KeychainAuthenticator {
    private let body: @Sendable (AuthenticationRequest) -> AuthenticationReply

    /// Makes one that answers every request with `body`.
    public init(_ body: @escaping @Sendable (AuthenticationRequest) -> AuthenticationReply) {
        self.body = body
    }

    /// Returns what the closure returns.
    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply { body(request) }
}

extension KeychainAuthenticator where Self == NonInteractiveAuthenticator {
    /// Never prompts; see ``NonInteractiveAuthenticator``.
    public static var nonInteractive: NonInteractiveAuthenticator { NonInteractiveAuthenticator() }
}

extension KeychainAuthenticator where Self == ProgrammableAuthenticator {
    /// Answers with `body`; see ``ProgrammableAuthenticator``.
    ///
    /// ```swift
    /// KeychainAuthenticators.install(.programmable { _ in .password(myDialog.ask()) })
    /// ```
    public static func programmable(_ body: @escaping @Sendable (AuthenticationRequest) -> AuthenticationReply) -> ProgrammableAuthenticator {
        ProgrammableAuthenticator(body)
    }
}

extension KeychainAuthenticator where Self == TerminalAuthenticator {
    /// Prompts on the controlling terminal; see ``TerminalAuthenticator``.
    public static var terminal: TerminalAuthenticator { TerminalAuthenticator() }
}
#endif
