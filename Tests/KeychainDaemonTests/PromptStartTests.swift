import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Where keychaind's unlock prompt can appear: started by hand from a terminal's shell (a
/// background job, which the terminal stops when it reads or sets the terminal), and with no
/// prompt to show at all, when the client must hear why at once rather than wait.
@Suite struct PromptStartTests {
    /// A sandbox whose login keychain holds `vault`/`me` = `inside`, has a password and is locked,
    /// with no daemon running.
    static func lockedKeychainWithoutDaemon() throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox()
        #expect(try sandbox.secretTool(["store", "--label", "Locked one", "service", "vault", "username", "me"], stdin: "inside").status == 0)
        try #require(try sandbox.keychainctl(["set-keychain-password", "-p", LockedKeychainTests.password]).status == 0)
        try #require(try sandbox.keychainctl(["lock-keychain"]).status == 0)
        sandbox.stop()
        return sandbox
    }

    /// keychaind started with `keychaind &` at an interactive shell in a real terminal (no
    /// setsid), then a lookup in that terminal: the prompt appears on that terminal, takes the
    /// password, and the lookup gets the secret. With `GPG_TTY=$(tty)` exported first, as
    /// GnuPG's setup has it, and without any terminal named (keychaind's own is used).
    @Test(arguments: [true, false])
    func keychaindStartedFromAShellPromptsOnItsTerminal(exportsGPGTTY: Bool) throws {
        try LockedKeychainTests.requirePrompter()
        let sandbox = try Self.lockedKeychainWithoutDaemon()
        let log = sandbox.home.appendingPathComponent("shell-keychaind.log")
        var environment = sandbox.environment
        environment["TERM"] = "xterm"
        environment["SWIFT_KEYCHAIN_PINENTRY"] = "/usr/bin/pinentry-tty"
        let assignments = environment.sorted { $0.key < $1.key }.map { TmuxSession.quote("\($0.key)=\($0.value)") }.joined(separator: " ")
        let terminal = try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "shell",
                                       shellLine: "env -i \(assignments) /bin/bash --norc --noprofile -i")
        var daemonProcess: pid_t?
        defer {
            if let daemonProcess { kill(daemonProcess, SIGTERM) }
            terminal.close()
        }
        // The typed lines show `\075` where the output has `=`, so a wait cannot stop at them.
        if exportsGPGTTY { terminal.type("export GPG_TTY=$(tty)") }
        terminal.type("\(TmuxSession.quote(try BuiltProduct.url("keychaind").path)) 2>\(TmuxSession.quote(log.path)) & printf 'KEYCHAIND\\075%s\\n' $!")
        let started = try terminal.waitFor("KEYCHAIND=")
        daemonProcess = started.components(separatedBy: "KEYCHAIND=").last.flatMap { pid_t($0.prefix { $0.isNumber }) }
        for _ in 0..<500 {
            if try sandbox.owner(of: "org.freedesktop.secrets") != nil { break }
            usleep(20_000)
        }
        terminal.type(#"timeout 60 secret-tool lookup service vault username me; printf '\nEXIT\075%s\n' $?"#)
        let prompt = try terminal.waitFor("Password:")
        #expect(prompt.contains("The program /usr/bin/secret-tool wants to use the keychain"), "\(prompt)")
        terminal.type(LockedKeychainTests.password)
        let screen = try terminal.waitFor("EXIT=")
        let lines = screen.split(separator: "\n")
        #expect(lines.contains("inside") && lines.contains("EXIT=0"), "\(screen)\n\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(!((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(LockedKeychainTests.password))
    }

    /// With no pinentry to run, the lookup fails at once, and both the client's error and the
    /// log say why.
    @Test func aPromptThatCannotBeShownFailsTheLookupWithItsReason() throws {
        let sandbox = try Self.lockedKeychainWithoutDaemon()
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": "no-such-pinentry"])
        let lookup = try sandbox.secretTool(["lookup", "service", "vault", "username", "me"])
        #expect(lookup.status != 0)
        #expect(lookup.stdout.isEmpty)
        #expect(lookup.stderr.contains("no-such-pinentry"), "\(lookup)")
        #expect(sandbox.log.contains("no-such-pinentry"), "\(sandbox.log)")
        #expect(sandbox.daemon?.isRunning == true, "keychaind died:\n\(sandbox.log)")
        #expect(try LockedKeychainTests.isLocked(sandbox) == true)
    }

    /// A pinentry that is stopped once asked ends the prompt: the lookup fails instead of waiting
    /// for ever, the log says the pinentry was stopped, and the daemon serves on.
    @Test func aStoppedPinentryEndsTheLookup() throws {
        let sandbox = try Self.lockedKeychainWithoutDaemon()
        let program = try PinentryPrompterTests.fakePinentry("stopping-pinentry", onGetpin: "kill -STOP $$")
        defer { try? FileManager.default.removeItem(at: program.deletingLastPathComponent()) }
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": program.path])
        let lookup = try sandbox.secretTool(["lookup", "service", "vault", "username", "me"])
        #expect(lookup.status != 0)
        #expect(lookup.stdout.isEmpty)
        #expect(sandbox.log.contains("stopped"), "\(sandbox.log)")
        #expect(sandbox.daemon?.isRunning == true, "keychaind died:\n\(sandbox.log)")
        #expect(try LockedKeychainTests.isLocked(sandbox) == true)
    }
}
