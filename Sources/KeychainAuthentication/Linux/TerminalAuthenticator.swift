#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore
import KeychainTerminal

/// Asks for the keychain password on the process's controlling terminal, like `sudo` does.
///
/// It writes the reason (the `kSecUseOperationPrompt` or `localizedReason` text, control
/// characters shown as `?`) and `Password: ` on `/dev/tty` (so it works while standard input and
/// output are redirected), and reads what is typed without echoing it. After a wrong password
/// the next request shows `Sorry, try again.` instead of the reason.
///
/// The reading is keychainctl's too (`TerminalPasswordReader` in KeychainStore), so the keys
/// behave the same in both: Backspace deletes the last character and Ctrl-U the line; Ctrl-C,
/// or Ctrl-D on an empty line, cancels (``AuthenticationReply/cancel``), as does a line longer
/// than 16 KiB, which cannot be a keychain password. With no terminal (a service, `setsid`, CI),
/// or from a background job of a shell, the reply is ``AuthenticationReply/notInteractive``.
///
/// The terminal's settings are restored before it returns, whatever happened, and also when
/// the process is killed at the prompt (SIGINT, SIGTERM, SIGHUP, SIGQUIT). The bytes read are
/// kept in locked memory and wiped. (The returned `String` itself cannot be wiped: Swift strings
/// are immutable copies; the keychain drops it as soon as it has derived the key.)
public struct TerminalAuthenticator: KeychainAuthenticator {
    /// Makes one; all instances share the one terminal, and prompt one at a time.
    public init() {}

    /// Prompts once on the controlling terminal.
    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply {
        let banner = request.previousAttemptFailed ? "Sorry, try again.\n"
            : request.reason.isEmpty ? "" : request.reason + "\n"
        switch TerminalPasswordReader.read(prompt: banner + "Password: ") {
        case .line(var typed):
            defer { SecretBuffer.wipe(&typed) }
            return .password(String(decoding: typed, as: UTF8.self))
        case .cancelled, .endOfInput, .tooLong:
            return .cancel
        case .notInteractive:
            return .notInteractive
        }
    }
}
#endif
