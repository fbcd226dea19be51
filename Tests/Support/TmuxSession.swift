import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A detached tmux session on a private server socket: a real terminal that a test can type into
/// and read back, for programs that prompt on `/dev/tty`.
///
/// The session runs one shell line, usually made by ``script(_:in:options:)`` so that the
/// program's exit status shows on the screen and the pane stays open to be read.
public final class TmuxSession: Sendable {
    public static let executable: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    public static var isAvailable: Bool { executable != nil }

    let socket: String
    let session: String

    /// Starts the server on `socket` with one session, 200×50, running `shellLine`.
    public init(socket: String, session: String, shellLine: String) throws {
        self.socket = socket
        self.session = session
        try tmux(["new-session", "-d", "-s", session, "-x", "200", "-y", "50", shellLine])
    }

    /// The terminal device of the session's pane (`/dev/pts/N`), for a program that is told
    /// which terminal to prompt on.
    public func paneTerminal() throws -> String {
        try tmux(["display-message", "-p", "-t", session, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Types `text` literally and presses Enter.
    public func type(_ text: String) {
        send(text)
        press("Enter")
    }

    /// Types `text` literally.
    public func send(_ text: String) { _ = try? tmux(["send-keys", "-t", session, "-l", text]) }

    /// Presses a key by its tmux name (`C-c`, `C-d`, `BSpace`, `Enter`).
    public func press(_ key: String) { _ = try? tmux(["send-keys", "-t", session, key]) }

    /// Waits until the screen shows `text` (at least `occurrences` times) and returns the screen.
    /// Throws ``NeverShown`` after 30 s, so a hang is reported rather than waited out. tmux drops
    /// trailing spaces from captured lines, so a prompt's final space is not required.
    @discardableResult
    public func waitFor(_ text: String, occurrences: Int = 1) throws -> String {
        try waitFor(anyOf: [text], occurrences: occurrences)
    }

    /// Waits until the screen shows one of `texts` (at least `occurrences` times) and returns the screen.
    @discardableResult
    public func waitFor(anyOf texts: [String], occurrences: Int = 1) throws -> String {
        let needles = texts.map { text in
            var needle = text
            while needle.hasSuffix(" ") { needle.removeLast() }
            return needle
        }
        var screen = ""
        for _ in 0..<300 {
            screen = (try? tmux(["capture-pane", "-p", "-t", session, "-S", "-100"])) ?? ""
            if needles.contains(where: { screen.components(separatedBy: $0).count - 1 >= occurrences }) { return screen }
            usleep(100_000)
        }
        throw NeverShown(expected: texts.joined(separator: " or "), screen: screen)
    }

    /// The terminal did not show what a test waited for; the failure shows the screen instead.
    public struct NeverShown: Error, CustomStringConvertible {
        public let expected: String
        public let screen: String
        public var description: String { "the terminal never showed \(expected.debugDescription); it shows:\n\(screen)" }
    }

    /// Ends the server, and with it the session and its program.
    public func close() { _ = try? tmux(["kill-server"]) }

    /// What the shell line of a terminal test does around its program.
    public struct ScriptOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Runs the program as a background job of a shell with job control (`set -m`), so it is
        /// not in the terminal's foreground process group.
        public static let background = ScriptOptions(rawValue: 1)
        /// Shows `PID=<pid>` of the program before it starts, so a test can signal it.
        public static let announcePID = ScriptOptions(rawValue: 2)
        /// After the exit status, shows `TTY=same` or `TTY=changed`: whether the terminal's
        /// settings (`stty -g`) are what they were before the program ran.
        public static let reportTerminal = ScriptOptions(rawValue: 4)
    }

    /// The shell line that runs `command` (words already quoted for the shell), in `directory` if
    /// given, then shows `EXIT=<status>` and keeps the pane open to be read.
    public static func script(_ command: String, in directory: String? = nil, options: ScriptOptions = []) -> String {
        var run = command
        if options.contains(.announcePID) { run = #"sh -c 'echo PID=$$; exec "$@"' sh "# + run }
        if options.contains(.background) { run = "set -m; \(run) & wait $!" }
        var line = directory.map { "cd \(quote($0)) && " } ?? ""
        if options.contains(.reportTerminal) { line += "before=$(stty -g); " }
        line += run + "; echo EXIT=$?; "
        if options.contains(.reportTerminal) {
            line += #"if [ "$(stty -g)" = "$before" ]; then echo TTY=same; else echo TTY=changed; fi; "#
        }
        return line + "sleep 600"
    }

    /// Quotes `text` for a POSIX shell.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
}
