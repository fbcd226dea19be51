import KeychainServices
import KeychainStore

/// A failure a subcommand reports: one line on standard error, and an exit status.
///
/// The line names the keychain call in `security`'s words (so people searching for a macOS error
/// find the same thing), the message, the `errSec` constant with its number, and a hint:
///
///     keychainctl: SecKeychainSearchCopyNext: The specified item could not be found in the keychain. [errSecItemNotFound -25300] Hint: …
///
/// Messages never contain a password or any other secret.
struct CommandFailure: Error, Sendable {
    /// The keychain status, or nil for a failure that happened before any keychain call.
    let status: OSStatus?
    /// What was being done, e.g. "SecKeychainSearchCopyNext" or "SecKeychainOpen /path".
    let context: String
    /// The sentence to print; by default the status's message.
    let message: String
    /// What the user can do about it.
    let hint: String?

    /// A failed keychain call; `keychain` is the keychain it was about, named in the hint.
    static func status(_ status: OSStatus, _ context: String, hint: String? = nil,
                       keychain: KeychainSession.Target? = nil) -> CommandFailure {
        CommandFailure(status: status, context: context, message: StatusText.message(status),
                       hint: hint ?? StatusText.hint(status, keychain: keychain))
    }

    /// A failed engine call (opening or changing a keychain file). The engine's reason names
    /// files and settings, never item contents, so it is safe to show.
    static func engine(_ error: KeychainStoreError, _ context: String, hint: String? = nil,
                       keychain: KeychainSession.Target? = nil) -> CommandFailure {
        let message = StatusText.message(error.status).trimmingTrailingPeriod() + " (" + error.reason + ")."
        return CommandFailure(status: error.status, context: context, message: message,
                              hint: hint ?? StatusText.hint(error.status, keychain: keychain))
    }

    /// This failure with the hint that fits `keychain`, for failures raised by calls that do not
    /// know which keychain they ran on (the SecItem calls). A hint chosen by the call site stays.
    func about(_ keychain: KeychainSession.Target) -> CommandFailure {
        guard let status, hint == StatusText.hint(status) else { return self }
        return CommandFailure(status: status, context: context, message: message,
                              hint: StatusText.hint(status, keychain: keychain))
    }

    /// This failure with another hint, for a status whose meaning depends on the command
    /// (which password errSecAuthFailed refused).
    func replacingHint(for status: OSStatus, with newHint: String) -> CommandFailure {
        guard self.status == status else { return self }
        return CommandFailure(status: status, context: context, message: message, hint: newHint)
    }

    /// A failure with no keychain status; exits 1, as `security` does for these.
    static func general(_ context: String, _ message: String, hint: String? = nil) -> CommandFailure {
        CommandFailure(status: nil, context: context, message: message, hint: hint)
    }

    /// Something `security` does that has no counterpart here: errSecUnimplemented, exit 252.
    static func unsupported(_ context: String, _ message: String, hint: String) -> CommandFailure {
        CommandFailure(status: errSecUnimplemented, context: context, message: message, hint: hint)
    }

    /// Runs `body`, and gives a failure it raises the hint that names `keychain`.
    static func about<T>(_ keychain: KeychainSession.Target, _ body: () throws(CommandFailure) -> T) throws(CommandFailure) -> T {
        do {
            return try body()
        } catch {
            throw error.about(keychain)
        }
    }

    /// The exit status for this failure.
    var exitCode: Int32 {
        status.map(ExitStatus.code(for:)) ?? ExitStatus.failure
    }

    /// What interactive mode reports as "returned N": the raw status, as `security` prints it.
    var reportedResult: Int32 {
        status ?? ExitStatus.failure
    }

    /// The one line printed on standard error (without the newline).
    func line(program: String) -> String {
        var text = "\(program): \(context): \(message)"
        if let status {
            text += " [\(StatusText.name(status)) \(status)]"
        }
        if let hint { text += " Hint: \(hint)" }
        return text
    }
}

extension String {
    func trimmingTrailingPeriod() -> String {
        hasSuffix(".") ? String(dropLast()) : self
    }
}
