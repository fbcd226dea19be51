import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainTestSupport
import Testing

/// The terminal authenticator on a real terminal, driven through tmux: `keychain-auth-probe`
/// asks for a keychain's password as a read of a protected item would, and prints the outcome.
/// Skipped when tmux is not installed (scripts/install-system-packages.sh installs it).
@Suite(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
struct AuthenticationTerminalTests {
    let password = "Pr0bePassw0rd"
    let reason = "Read the API token for api.example.com"

    @Test("The terminal prompt shows the operation prompt, then asks for the password")
    func promptShowsReason() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        let screen = try terminal.waitFor("Password:")
        let lines = screen.split(separator: "\n").map(String.init)
        let prompt = try #require(lines.firstIndex { $0.hasPrefix("Password:") })
        #expect(prompt > 0 && lines[prompt - 1] == reason)
        terminal.press("C-c")
        try terminal.waitFor("EXIT=0")
    }

    @Test("The right password typed at the terminal succeeds, and the terminal settings are restored")
    func rightPassword() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        try terminal.waitFor("Password:")
        terminal.type(password)
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: success"))
        #expect(screen.contains("terminal: restored"))
    }

    @Test("The password typed is never echoed, right or wrong")
    func noEcho() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        try terminal.waitFor("Password:")
        terminal.type("WrongGuess77")
        try terminal.waitFor("Sorry, try again.")
        terminal.type(password)
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: success"))
        #expect(!screen.contains("WrongGuess77"))
        #expect(!screen.contains(password))
    }

    @Test("Three wrong passwords fail with authenticationFailed, saying Sorry, try again. before each retry")
    func threeWrong() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        for attempt in 1...3 {
            try terminal.waitFor("Password:", occurrences: attempt)
            terminal.type("wrong\(attempt)")
        }
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: authenticationFailed"))
        #expect(screen.components(separatedBy: "Sorry, try again.").count - 1 == 2)
        #expect(screen.contains("terminal: restored"))
    }

    @Test("Ctrl-C at the prompt cancels with userCancel, without killing the process")
    func controlC() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        try terminal.waitFor("Password:")
        terminal.send("half")
        terminal.press("C-c")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: userCancel"))
        #expect(screen.contains("terminal: restored"))
    }

    @Test("Ctrl-D on an empty line cancels with userCancel")
    func controlD() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        try terminal.waitFor("Password:")
        terminal.press("C-d")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: userCancel"))
        #expect(screen.contains("terminal: restored"))
    }

    @Test("Ctrl-D after some characters does not cancel, and Backspace deletes the last character")
    func controlDAndBackspace() throws {
        let sandbox = try ProbeSandbox(password: password)
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason)
        defer { terminal.close() }
        try terminal.waitFor("Password:")
        terminal.send(password + "x")
        terminal.press("C-d")
        terminal.press("BSpace")
        terminal.press("Enter")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: success"))
    }

    @Test("A background job of the shell does not prompt: notInteractive, and it is not stopped")
    func backgroundJob() throws {
        let sandbox = try ProbeSandbox(password: password)
        // Job control on (set -m), so the job gets its own process group, not the terminal's.
        let terminal = try ProbeTerminal.start(sandbox: sandbox, reason: reason, options: .background)
        defer { terminal.close() }
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("outcome: notInteractive"))
        #expect(!screen.contains("Password:"))
    }

    @Test("Without a controlling terminal (setsid) the terminal authenticator fails with notInteractive")
    func noTerminal() throws {
        let sandbox = try ProbeSandbox(password: password)
        let outcome = try ProofSupport.run(try ProofSupport.tool("setsid"),
                                           ["--wait", try ProofSupport.product("keychain-auth-probe").path, "obtain", reason],
                                           environment: sandbox.environment)
        #expect(outcome.lines == ["outcome: notInteractive", "terminal: none"], "\(outcome.stderr)")
    }
}

/// A private keychain with a password, for the probe: the keychain path, device key and home all
/// point into a fresh folder.
final class ProbeSandbox: Sendable {
    let home: URL

    init(password: String) throws {
        home = FileManager.default.temporaryDirectory
            .appendingPathComponent("auth-terminal-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // The password goes through the environment of a plain run, never through the terminal's
        // command line, so the screen checks below cannot see it by accident.
        let setup = try ProofSupport.run(try ProofSupport.product("keychain-auth-probe"), ["set-password"],
                                         environment: environment.merging(["KEYCHAIN_AUTH_PROBE_PASSWORD": password]) { $1 })
        try #require(setup.lines == ["password-set"], "set-password failed: \(setup.stderr)")
    }

    deinit { try? FileManager.default.removeItem(at: home) }

    /// The keychain the probe (and keychainctl, given this path) asks the password of.
    var keychainPath: String { home.appendingPathComponent("probe.keychain-db").path }

    var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "SWIFT_KEYCHAIN_PATH": keychainPath,
            "LANG": "C.UTF-8",
        ]
    }
}

/// A terminal running `keychain-auth-probe obtain REASON` (or another of the package's programs)
/// in the sandbox's environment, then printing `EXIT=<status>`.
enum ProbeTerminal {
    static func start(sandbox: ProbeSandbox, reason: String, options: TmuxSession.ScriptOptions = []) throws -> TmuxSession {
        try start(sandbox: sandbox, product: "keychain-auth-probe", arguments: ["obtain", reason], options: options)
    }

    /// Runs another of the package's programs the same way (`extraEnvironment` added to the sandbox's).
    static func start(sandbox: ProbeSandbox, product: String, arguments: [String], extraEnvironment: [String: String] = [:],
                      options: TmuxSession.ScriptOptions = []) throws -> TmuxSession {
        let program = try ProofSupport.product(product).path
        let environment = sandbox.environment.merging(extraEnvironment) { $1 }
            .map { "\($0.key)=\(TmuxSession.quote($0.value))" }.joined(separator: " ")
        let run = "env -i \(environment) \(TmuxSession.quote(program)) \(arguments.map(TmuxSession.quote).joined(separator: " "))"
        return try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "auth",
                               shellLine: TmuxSession.script(run, options: options))
    }
}
