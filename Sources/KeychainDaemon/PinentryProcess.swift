import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One running pinentry, from its start to its end, for ``PinentryPrompter``.
///
/// It is started in a session of its own (as gpg-agent starts it), so it has no controlling
/// terminal: it reaches the terminal it is given with `--ttyname`, and no terminal can stop it
/// with SIGTTIN or SIGTTOU, as a terminal stops a program of a background job (`keychaind &`)
/// that reads it or changes its settings. It is talked to over one end of a socket pair (its
/// standard input and output are the other end), written with MSG_NOSIGNAL so that a pinentry
/// that has gone away is a failed write, never a SIGPIPE for whichever process hosts the prompter.
///
/// While it is waited for, it is watched: stopped anyway (SIGSTOP from anyone), or silent past
/// the deadline, it is ended, and ``failure`` says why.
final class PinentryProcess {
    /// glibc's and musl's POSIX_SPAWN_SETSID (setsid in the child before the exec), which
    /// Swift's Glibc module does not export.
    private static let spawnSetSID: Int32 = 0x80
    /// How long an ended conversation waits for the pinentry to exit before it is killed.
    static let exitGrace: Duration = .seconds(1)
    /// How often a pinentry that is waited for is checked for being stopped.
    private static let watchIntervalMilliseconds: Int32 = 100

    let name: String
    private let processID: pid_t
    private let socket: Int32
    private let deadline: ContinuousClock.Instant
    private let answerTimeout: Duration
    private var reaped = false
    /// Why the conversation ended before an answer, when the pinentry was stopped or silent.
    private(set) var failure: String?

    /// Starts `program` with `arguments` and `environment`; a reason when it cannot be started.
    static func start(_ program: String, arguments: [String], environment: [String: String],
                      answerTimeout: Duration) -> Result<PinentryProcess, PromptFailure> {
        let name = URL(fileURLWithPath: program).lastPathComponent
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return .failure(PromptFailure("\(name) could not be started: \(String(cString: strerror(errno)))"))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // keychaind blocks SIGTERM and SIGINT (one thread waits for them) and ignores SIGPIPE;
        // a child inherits both, and pinentry must start as any program does.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGTTIN, SIGTTOU] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF) | spawnSetSID))
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var processID: pid_t = 0
        let spawned = posix_spawn(&processID, program, &actions, &attributes, argv, envp)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return .failure(PromptFailure("\(name) could not be started: \(String(cString: strerror(spawned)))"))
        }
        return .success(PinentryProcess(name: name, processID: processID, socket: ends[0], answerTimeout: answerTimeout))
    }

    private init(name: String, processID: pid_t, socket: Int32, answerTimeout: Duration) {
        self.name = name
        self.processID = processID
        self.socket = socket
        self.answerTimeout = answerTimeout
        self.deadline = .now + answerTimeout
    }

    /// Sends one Assuan line; false when the pinentry is gone.
    @discardableResult
    func sendLine(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Reads what the pinentry has written, waiting for it as long as the deadline allows and
    /// the pinentry runs; 0 at its end, or when it was stopped or silent (then ``failure`` says
    /// which, and it has been killed).
    func readAvailable(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while failure == nil {
            let left = deadline - .now
            guard left > .zero else {
                fail("\(name) gave no answer within \(answerTimeout)")
                break
            }
            var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let waited = poll(&watched, 1, min(Self.watchIntervalMilliseconds, Self.milliseconds(left)))
            if waited < 0 {
                if errno == EINTR { continue }
                return 0
            }
            if waited > 0 {
                let count = read(socket, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                return max(count, 0)
            }
            if let signalNumber = stoppingSignal() {
                fail("\(name) was stopped (signal \(signalNumber)) before it answered")
            } else if reaped {
                // It exited with nothing more to read (a child of it may hold the socket open).
                fail("\(name) ended without an answer")
            }
        }
        return 0
    }

    /// Ends the conversation: the pinentry sees the end of its input and exits, or is killed
    /// after ``exitGrace``; either way it is reaped.
    func end() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        let giveUp = ContinuousClock.now + Self.exitGrace
        while !reaped && ContinuousClock.now < giveUp {
            reap(blocking: false)
            if !reaped { usleep(10_000) }
        }
        if !reaped {
            kill(-processID, SIGKILL)
            reap(blocking: true)
        }
    }

    /// The signal that stopped the pinentry, if it is stopped now.
    private func stoppingSignal() -> Int32? {
        guard !reaped else { return nil }
        var status: Int32 = 0
        let result = waitpid(processID, &status, WNOHANG | WUNTRACED)
        if result == processID {
            // As <sys/wait.h> decodes it: 0x7f in the low byte is a stop, the signal above it.
            if status & 0xff == 0x7f { return (status >> 8) & 0xff }
            reaped = true
        } else if result < 0 && errno == ECHILD {
            reaped = true
        }
        return nil
    }

    private func reap(blocking: Bool) {
        guard !reaped else { return }
        var status: Int32 = 0
        while true {
            let result = waitpid(processID, &status, blocking ? 0 : WNOHANG)
            if result < 0 && errno == EINTR { continue }
            // ECHILD: someone else (Foundation's child monitoring) reaped it; it has ended either way.
            if result == processID || (result < 0 && errno == ECHILD) { reaped = true }
            return
        }
    }

    /// Kills the pinentry's whole session (a script's children too) and records why.
    private func fail(_ reason: String) {
        failure = reason
        // Once reaped, its process group id may name someone else's group: leave it alone.
        if !reaped { kill(-processID, SIGKILL) }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }
}

/// Why no prompt could be shown, in words the log and the client's error can carry (it never
/// holds anything typed).
struct PromptFailure: Error, Sendable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
