import Foundation
@testable import KeychainAuthentication
import Testing

/// Choosing the authenticator, simulated biometry, and what authenticators reveal.
@Suite("Authenticators")
struct AuthenticatorsTests {
    func kind(_ environment: [String: String], terminal: Bool) -> String {
        let chosen = KeychainAuthenticators.defaultAuthenticator(environment: environment, terminalAvailable: { terminal })
        return "\(type(of: chosen))"
    }

    @Test("The default is the terminal prompt when there is a terminal, and non-interactive without one")
    func defaultByTerminal() {
        #expect(kind([:], terminal: true) == "TerminalAuthenticator")
        #expect(kind([:], terminal: false) == "NonInteractiveAuthenticator")
    }

    @Test("SWIFT_KEYCHAIN_AUTHENTICATOR=none or =terminal overrides the terminal check")
    func environmentOverride() {
        #expect(kind(["SWIFT_KEYCHAIN_AUTHENTICATOR": "none"], terminal: true) == "NonInteractiveAuthenticator")
        #expect(kind(["SWIFT_KEYCHAIN_AUTHENTICATOR": "terminal"], terminal: false) == "TerminalAuthenticator")
        #expect(kind(["SWIFT_KEYCHAIN_AUTHENTICATOR": "bogus"], terminal: false) == "NonInteractiveAuthenticator")
    }

    @Test("Simulated biometry is off by default and on with SWIFT_KEYCHAIN_SIMULATED_BIOMETRY=1 (debug build)")
    func simulatedBiometryEnvironment() {
        func decision(_ environment: [String: String]) -> SimulatedBiometryDecision {
            KeychainAuthenticators.simulatedBiometryDecision(environment: environment, isDebugBuild: true)
        }
        #expect(decision([:]) == .off)
        #expect(decision(["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "0"]) == .off)
        #expect(decision(["SWIFT_KEYCHAIN_SIMULATED_BIOMETRY": "1"]) == .on)
    }

    @Test("An authenticator installed for a task is the current one there, and not outside it")
    func taskOverride() {
        KeychainAuthenticators.withAuthenticator(.programmable { _ in .cancel }) {
            #expect(KeychainAuthenticators.current is ProgrammableAuthenticator)
        }
        #expect(!(KeychainAuthenticators.current is ProgrammableAuthenticator))
    }

    @Test("The programmable authenticator answers with its closure")
    func programmable() {
        let authenticator: ProgrammableAuthenticator = .programmable { request in
            request.attempt == 1 ? .password("first") : .cancel
        }
        #expect(authenticator.authenticate(AuthenticationRequest(reason: "r", policy: .deviceOwnerAuthentication)) == .password("first"))
        #expect(authenticator.authenticate(AuthenticationRequest(reason: "r", policy: .deviceOwnerAuthentication, attempt: 2,
                                                                 previousAttemptFailed: true)) == .cancel)
    }

    @Test("The non-interactive authenticator always answers notInteractive")
    func nonInteractive() {
        #expect(NonInteractiveAuthenticator().authenticate(AuthenticationRequest(reason: "", policy: .deviceOwnerAuthentication)) == .notInteractive)
    }

    @Test("A password reply never shows the password in its description, debug description or dump")
    func replyRedacted() {
        let reply = AuthenticationReply.password("hunter2-secret")
        var dumped = ""
        dump(reply, to: &dumped)
        for text in [reply.description, reply.debugDescription, "\(reply)", String(reflecting: reply), dumped] {
            #expect(!text.contains("hunter2"))
        }
    }
}

/// The process-wide setting, in its own serialized suite; other tests use task-local choices.
@Suite("Installing an authenticator for the process", .serialized)
struct InstalledAuthenticatorTests {
    @Test("install makes an authenticator current for the process, and reset goes back to the default")
    func installAndReset() {
        defer { KeychainAuthenticators.reset() }
        KeychainAuthenticators.install(.programmable { _ in .cancel })
        #expect(KeychainAuthenticators.current is ProgrammableAuthenticator)
        KeychainAuthenticators.reset()
        #expect(!(KeychainAuthenticators.current is ProgrammableAuthenticator))
    }
}
