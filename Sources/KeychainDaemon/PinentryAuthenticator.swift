package import KeychainAuthentication
package import Logging

/// The keychain password asked through pinentry during a call that needs the user at each use
/// (an item or key whose access control asks for presence or the passcode), for a client of one
/// of keychaind's sockets: the keychain checks the answer, three tries at most, and a cancel or
/// an unavailable prompt fails the call. `description` says who asks and what for; it is given
/// the request, whose reason is the caller's own text when it gave one.
package struct PinentryAuthenticator: KeychainAuthenticator {
    let prompter: PinentryPrompter
    let description: @Sendable (AuthenticationRequest) -> String
    /// What the log says the answer was for (never the answer's password).
    let subject: String
    let logger: Logger

    package init(prompter: PinentryPrompter, subject: String, logger: Logger,
                 description: @escaping @Sendable (AuthenticationRequest) -> String) {
        self.prompter = prompter
        self.subject = subject
        self.logger = logger
        self.description = description
    }

    package func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply {
        let answer = prompter.askPassword(PasswordRequest(
            description: description(request),
            error: request.previousAttemptFailed ? "Wrong password, try again." : nil))
        logger.info("a password prompt was answered", metadata: ["for": "\(subject)", "answer": "\(answer)"])
        switch answer {
        case .password(let password): return .password(password)
        case .cancelled, .confirmed: return .cancel
        case .unavailable: return .notInteractive
        }
    }
}

extension PinentryAuthenticator {
    /// What the keeper asks a served program's user for an item that needs the password each
    /// time: the program as the kernel shows it, and the call's own reason, quoted.
    package static func keeperDescription(program: String, reason: String) -> String {
        let said = reason.isEmpty ? "" : " It says: \(CallerProgram.quoted(reason))."
        return "\(program) wants to use an item of the keychain that requires your password each time.\(said) "
            + "Enter the keychain's password to allow it."
    }
}
