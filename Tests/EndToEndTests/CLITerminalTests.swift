import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Password prompts on a real terminal, driven through tmux: the prompt appears, what is typed
/// is not echoed, and the password is stored. Skipped when tmux is not installed (CI installs it).
@Suite(.enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
struct CLITerminalTests {
    @Test("A trailing -w prompts twice on the terminal without echoing the password, and stores it")
    func promptWithoutEcho() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal(sandbox: sandbox,
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
        let terminal = try TmuxTerminal(sandbox: sandbox,
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
        let terminal = try TmuxTerminal(sandbox: sandbox, command: ["-i"])
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

    @Test("Interactive mode shows its prompt on a terminal")
    func interactivePrompt() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal(sandbox: sandbox, command: ["-i"])
        defer { terminal.close() }
        try terminal.waitFor("keychainctl> ")
        terminal.type("add-generic-password -a a -s s -w typed")
        try terminal.waitFor("keychainctl> ", occurrences: 2)
        terminal.type("exit")
        try terminal.waitFor("EXIT=0")
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).stdout == "typed\n")
    }
}

/// A detached tmux session on a private server socket, running keychainctl in the sandbox's
/// environment, then printing `EXIT=<status>` so the test can see how it ended.
final class TmuxTerminal: Sendable {
    static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static var isAvailable: Bool { executable != nil }

    let socket: String
    let session = "kc"

    init(sandbox: CLISandbox, command: [String]) throws {
        socket = sandbox.path("tmux.sock")
        let binary = try CLIBinary.url().path
        let environment = sandbox.environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let line = "cd \(Self.quote(sandbox.home.path)) && env -i \(environment) \(Self.quote(binary)) "
            + command.map(Self.quote).joined(separator: " ") + "; echo EXIT=$?; sleep 600"
        try tmux(["new-session", "-d", "-s", session, "-x", "200", "-y", "50", line])
    }

    /// Types `text` and Return.
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-t", session, "-l", text])
        _ = try? tmux(["send-keys", "-t", session, "Enter"])
    }

    /// Waits until the screen shows `text` (at least `occurrences` times); returns the screen.
    /// Fails the test after a generous deadline, so a hang is reported rather than waited out.
    /// (tmux drops trailing spaces from captured lines, so a prompt's final space is not required.)
    @discardableResult
    func waitFor(_ text: String, occurrences: Int = 1) throws -> String {
        var needle = text
        while needle.hasSuffix(" ") { needle.removeLast() }
        var screen = ""
        for _ in 0..<300 {
            screen = (try? tmux(["capture-pane", "-p", "-t", session, "-S", "-100"])) ?? ""
            if screen.components(separatedBy: needle).count - 1 >= occurrences { return screen }
            usleep(100_000)
        }
        Issue.record("the terminal never showed \(text.debugDescription); it shows:\n\(screen)")
        throw CancellationError()
    }

    func close() {
        _ = try? tmux(["kill-server"])
    }

    /// Runs one tmux command and returns what it printed. The output goes through a file, not a
    /// pipe: the first command starts the tmux server, which keeps the descriptors it was given,
    /// so a pipe would never reach end-of-file. The command is started with posix_spawn and
    /// reaped with waitpid: Foundation's Process.waitUntilExit never returns for
    /// `tmux new-session -d` on Linux (the daemonised server confuses its child monitoring).
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let outputPath = socket + ".out-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let stdoutPath = arguments.first == "new-session" ? "/dev/null" : outputPath
        try Self.spawnAndWait(Self.executable ?? "/usr/bin/tmux", ["-S", socket] + arguments, stdout: stdoutPath)
        return String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self)
    }

    private struct SpawnFailure: Error { let code: Int32 }

    private static func spawnAndWait(_ path: String, _ arguments: [String], stdout: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The test runner blocks or ignores some signals, and a spawned process inherits that.
        // tmux's kill-server works by the server signalling itself (SIGTERM), and a pane's
        // program is ended with SIGHUP, so both must reach them: start tmux with an empty mask
        // and default dispositions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard rc == 0 else { throw SpawnFailure(code: rc) }
        var status: Int32 = 0
        // ECHILD means Foundation's own child handler reaped it first: it has exited either way.
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
