import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainTestSupport
import Testing

/// keychainctl's password prompt and the terminal authenticator read the terminal with one reader
/// (TerminalPasswordReader). These tests type the same keys at both, on a real terminal through
/// tmux, and expect the same end, with the terminal's settings as they were before: if the two
/// ever read by different rules again, one of them fails. Skipped without tmux.
@Suite(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
struct TerminalPromptParityTests {
    static let password = "Par1tyPassw0rd"

    /// One key press as tmux sends it.
    enum Key: Sendable {
        /// Literal text.
        case text(String)
        /// The keychain's password, typed literally.
        case password
        /// A key by its tmux name (`BSpace`, `C-u`, `Enter`).
        case press(String)
    }

    /// How a prompt ended, in terms both programs can show.
    enum End: Sendable {
        /// The line was the password.
        case accepted
        /// The line was read, and it was not the password.
        case rejected
        /// No line: cancelled, or the end of input.
        case declined
    }

    struct Script: Sendable, CustomTestStringConvertible {
        let name: String
        let keys: [Key]
        let end: End
        var testDescription: String { name }
    }

    static let scripts: [Script] = [
        Script(name: "Backspace removes the last character", keys: [.password, .text("x"), .press("BSpace"), .press("Enter")], end: .accepted),
        Script(name: "Backspace removes one character only", keys: [.password, .press("BSpace"), .press("Enter")], end: .rejected),
        Script(name: "Ctrl-U empties the line", keys: [.text("wrong"), .press("C-u"), .password, .press("Enter")], end: .accepted),
        Script(name: "Ctrl-D within a line does nothing", keys: [.password, .press("C-d"), .press("Enter")], end: .accepted),
        Script(name: "Other control keys are not part of the password", keys: [.password, .press("C-a"), .press("Enter")], end: .accepted),
        Script(name: "Ctrl-C cancels", keys: [.text("half"), .press("C-c")], end: .declined),
        Script(name: "Ctrl-D on an empty line ends the input", keys: [.press("C-d")], end: .declined),
        Script(name: "Ctrl-D on a line Ctrl-U emptied ends the input", keys: [.text("abc"), .press("C-u"), .press("C-d")], end: .declined),
    ]

    @Test("The same keys end the same way at both prompts, and the terminal is restored", arguments: scripts, Prompt.allCases)
    func sameKeysSameEnd(script: Script, prompt: Prompt) throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        let terminal = try prompt.start(in: sandbox, options: .reportTerminal)
        defer { terminal.close() }
        try terminal.waitFor(prompt.promptText(sandbox))
        for key in script.keys {
            switch key {
            case .text(let text): terminal.send(text)
            case .password: terminal.send(Self.password)
            case .press(let name): terminal.press(name)
            }
        }
        let screen = try prompt.finish(terminal)
        #expect(prompt.end(of: screen) == script.end, "\(screen)")
        #expect(screen.contains("TTY=same"), "\(screen)")
        #expect(!screen.contains(Self.password))
    }

    @Test("Killed at either prompt, the program puts the terminal back first", arguments: [SIGINT, SIGTERM], Prompt.allCases)
    func signalRestoresTerminal(signal: Int32, prompt: Prompt) throws {
        let sandbox = try ProbeSandbox(password: Self.password)
        let terminal = try prompt.start(in: sandbox, options: [.reportTerminal, .announcePID])
        defer { terminal.close() }
        let screen = try terminal.waitFor(prompt.promptText(sandbox))
        let pid = try #require(screen.split(separator: "\n").lazy.compactMap { $0.hasPrefix("PID=") ? pid_t($0.dropFirst(4)) : nil }.first)
        terminal.send("typed")
        try #require(kill(pid, signal) == 0)
        let after = try terminal.waitFor("TTY=")
        #expect(after.contains("EXIT=\(128 + signal)"), "\(after)")
        #expect(after.contains("TTY=same"), "\(after)")
    }

    /// The two ways into the reader: keychainctl asking for a keychain's password, and the
    /// terminal authenticator asking on behalf of a protected item (keychain-auth-probe).
    enum Prompt: CaseIterable, Sendable {
        case keychainctl
        case authenticator

        func start(in sandbox: ProbeSandbox, options: TmuxSession.ScriptOptions) throws -> TmuxSession {
            switch self {
            case .keychainctl:
                try ProbeTerminal.start(sandbox: sandbox, product: "keychainctl",
                                        arguments: ["unlock-keychain", sandbox.keychainPath], options: options)
            case .authenticator:
                try ProbeTerminal.start(sandbox: sandbox, reason: "Parity", options: options)
            }
        }

        func promptText(_ sandbox: ProbeSandbox) -> String {
            switch self {
            case .keychainctl: "password to unlock \(sandbox.keychainPath): "
            case .authenticator: "Password: "
            }
        }

        /// Waits for the program to end; the authenticator asks again after a wrong password, so
        /// that attempt is cancelled to end it.
        func finish(_ terminal: TmuxSession) throws -> String {
            let screen = try terminal.waitFor(anyOf: ["TTY=", "Sorry, try again."])
            guard !screen.contains("TTY=") else { return screen }
            terminal.press("C-c")
            return try terminal.waitFor("TTY=")
        }

        func end(of screen: String) -> End? {
            switch self {
            case .keychainctl:
                if screen.contains("EXIT=0") { return .accepted }
                if screen.contains("EXIT=51") { return .rejected }
                // Ctrl-C: errSecUserCanceled (exit 128); Ctrl-D: no password typed (exit 1).
                if screen.contains("EXIT=128") && screen.contains("errSecUserCanceled") { return .declined }
                if screen.contains("EXIT=1\n") && screen.contains("end of input") { return .declined }
            case .authenticator:
                if screen.contains("outcome: success") { return .accepted }
                if screen.contains("Sorry, try again.") { return .rejected }
                if screen.contains("outcome: userCancel") { return .declined }
            }
            return nil
        }
    }
}
