import Foundation
#if canImport(Glibc)
import Glibc
#endif
import KeychainTestSupport
import Testing

/// Password prompts on a real terminal, driven through tmux: the prompt appears, what is typed
/// is not echoed, and the password is stored. Skipped when tmux is not installed (CI installs it).
@Suite(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
struct CLITerminalTests {
    @Test("A trailing -w prompts twice on the terminal without echoing the password, and stores it")
    func promptWithoutEcho() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal.start(sandbox: sandbox,
                                        command: ["add-generic-password", "-a", "alice", "-s", "tty.example", "-w"])
        defer { terminal.close() }
        try terminal.waitFor("password data for new item: ")
        terminal.type("TypedSecret1")
        try terminal.waitFor("retype password for new item: ")
        terminal.type("TypedSecret1")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(!screen.contains("TypedSecret1"))
        #expect(try sandbox.run(["find-generic-password", "-s", "tty.example", "-w"]).stdout == "TypedSecret1\n")
    }

    @Test("Typing two different passwords at the prompts asks again, and three mismatches exit 1 storing nothing")
    func mismatchedPrompts() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal.start(sandbox: sandbox,
                                        command: ["add-generic-password", "-a", "alice", "-s", "tty.example", "-w"])
        defer { terminal.close() }
        for attempt in 1...3 {
            try terminal.waitFor("password data for new item: ", occurrences: attempt)
            terminal.type("one\(attempt)")
            try terminal.waitFor("retype password for new item: ", occurrences: attempt)
            terminal.type("two\(attempt)")
        }
        let screen = try terminal.waitFor("EXIT=1")
        #expect(screen.contains("passwords don't match"))
        #expect(!screen.contains("one1") && !screen.contains("two1"))
        #expect(try sandbox.run(["find-generic-password", "-s", "tty.example"]).status == 44)
    }

    @Test("unlock-keychain prompts once on the terminal without echo and unlocks")
    func unlockPrompt() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("locked.keychain-db")
        #expect(try sandbox.run(["create-keychain", path]).status == 0)
        try sandbox.addGeneric(account: "a", service: "s", password: "inside", extra: [path])
        #expect(try sandbox.run(["set-keychain-password", "-p", "TermPass9", path]).status == 0)
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        // One interactive session, so the read after the unlock is in the same process.
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["-i"])
        defer { terminal.close() }
        try terminal.waitFor("keychainctl> ")
        terminal.type("unlock-keychain \(path)")
        try terminal.waitFor("password to unlock \(path): ")
        terminal.type("TermPass9")
        try terminal.waitFor("keychainctl> ", occurrences: 2)
        terminal.type("find-generic-password -s s -w \(path)")
        try terminal.waitFor("keychainctl> ", occurrences: 3)
        terminal.type("exit")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(!screen.contains("TermPass9"))
        #expect(screen.contains("\ninside\n"))
        #expect(!screen.contains("returned"))
    }

    @Test("An item command on a locked keychain at a terminal offers the unlock prompt, then does its work")
    func lockedKeychainOffersUnlock() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("locked.keychain-db")
        #expect(try sandbox.run(["create-keychain", "-p", "TermPass9", path]).status == 0)
        try sandbox.addGeneric(account: "a", service: "s", password: "inside", extra: [path])
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        // In a script the same command still fails at once, without reading standard input.
        let scripted = try sandbox.run(["find-generic-password", "-s", "s", "-w", path], stdin: "TermPass9\n")
        #expect(scripted.status == 36)
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["find-generic-password", "-s", "s", "-w", path])
        defer { terminal.close() }
        try terminal.waitFor("password to unlock \(path): ")
        terminal.type("TermPass9")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(screen.contains("\ninside\n"))
        #expect(!screen.contains("TermPass9"))
    }

    @Test("Ctrl-C at a password prompt cancels that command (errSecUserCanceled), and interactive mode carries on")
    func controlCInInteractiveMode() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("locked.keychain-db")
        #expect(try sandbox.run(["create-keychain", "-p", "TermPass9", path]).status == 0)
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["-i"], options: .reportTerminal)
        defer { terminal.close() }
        try terminal.waitFor("keychainctl> ")
        terminal.type("unlock-keychain \(path)")
        try terminal.waitFor("password to unlock \(path): ")
        terminal.send("half")
        terminal.press("C-c")
        let screen = try terminal.waitFor("keychainctl> ", occurrences: 2)
        #expect(screen.contains("[errSecUserCanceled -128]"))
        #expect(screen.contains("unlock-keychain: returned -128"))
        terminal.type("exit")
        #expect(try terminal.waitFor("TTY=").contains("TTY=same"))
    }

    @Test("A background job does not prompt: it says why and exits 1, rather than being stopped")
    func backgroundJob() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("locked.keychain-db")
        #expect(try sandbox.run(["create-keychain", "-p", "TermPass9", path]).status == 0)
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["unlock-keychain", path], options: [.background, .reportTerminal])
        defer { terminal.close() }
        let screen = try terminal.waitFor("TTY=")
        #expect(screen.contains("EXIT=1"))
        #expect(screen.contains("background job"))
        #expect(!screen.contains("password to unlock"))
        #expect(screen.contains("TTY=same"))
    }

    @Test("Interactive mode shows its prompt on a terminal")
    func interactivePrompt() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["-i"])
        defer { terminal.close() }
        try terminal.waitFor("keychainctl> ")
        terminal.type("add-generic-password -a a -s s -w typed")
        try terminal.waitFor("keychainctl> ", occurrences: 2)
        terminal.type("exit")
        try terminal.waitFor("EXIT=0")
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).stdout == "typed\n")
    }
}

/// A terminal running keychainctl in the sandbox's environment, then printing `EXIT=<status>`
/// so the test can see how it ended.
enum TmuxTerminal {
    static var isAvailable: Bool { TmuxSession.isAvailable }

    static func start(sandbox: CLISandbox, command: [String], options: TmuxSession.ScriptOptions = []) throws -> TmuxSession {
        let binary = try CLIBinary.url().path
        let environment = sandbox.environment.map { "\($0.key)=\(TmuxSession.quote($0.value))" }.joined(separator: " ")
        let run = "env -i \(environment) \(TmuxSession.quote(binary)) " + command.map(TmuxSession.quote).joined(separator: " ")
        return try TmuxSession(socket: sandbox.path("tmux.sock"), session: "kc",
                               shellLine: TmuxSession.script(run, in: sandbox.home.path, options: options))
    }
}
