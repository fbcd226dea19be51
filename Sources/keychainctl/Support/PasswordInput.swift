import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads passwords without putting them in the process listing.
///
/// When standard input is a terminal, the prompt is written to the terminal (/dev/tty) and the
/// answer is read there with echo turned off, as `getpass(3)` does; when it is not (a pipe, a
/// file), one line is read from standard input and nothing is prompted, so that
/// `printf '%s\n' "$pw" | keychainctl add-generic-password -a me -s svc -w` works in scripts.
/// Either way the line lands in locked memory that is wiped afterwards (``SecretLine``).
enum PasswordInput {
    /// Reads a password. With `confirmPrompt`, a terminal user types it twice and gets three
    /// tries to make the two agree (as `security` does); piped input is read once.
    static func read(prompt: String, confirmPrompt: String? = nil, context: String) throws(CommandFailure) -> [UInt8] {
        guard Console.inputIsTerminal else {
            switch SecretLine.readLine(fd: STDIN_FILENO) {
            case .line(let line): return line
            case .endOfInput:
                throw .general(context, "no password was given on standard input.",
                               hint: "Pipe the password as one line, or run the command in a terminal to be prompted.")
            case .tooLong: throw tooLong(context)
            }
        }
        for _ in 0..<3 {
            var first = try readFromTerminal(prompt: prompt, context: context)
            guard let confirmPrompt else { return first }
            var second = try readFromTerminal(prompt: confirmPrompt, context: context)
            let same = first == second
            SecretLine.wipe(&second)
            if same { return first }
            SecretLine.wipe(&first)
            Console.err("passwords don't match\n")
        }
        throw .general(context, "the passwords typed did not match.", hint: "Type the same password at both prompts.")
    }

    /// Prompts on the controlling terminal and reads one line with echo off.
    private static func readFromTerminal(prompt: String, context: String) throws(CommandFailure) -> [UInt8] {
        // Close-on-exec, so no program started later inherits the terminal's descriptor.
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        let input = tty >= 0 ? tty : STDIN_FILENO
        let output = tty >= 0 ? tty : STDERR_FILENO
        defer { if tty >= 0 { close(tty) } }
        // Echo goes off before the prompt is shown: a user who types as soon as the prompt
        // appears must not see the password echoed, nor lose it to the flush that comes with
        // the switch (TCSAFLUSH drops only what was typed before the prompt).
        let restore = EchoGuard(fd: input)
        Console.write(output, Array(prompt.utf8))
        let outcome = SecretLine.readLine(fd: input)
        restore.restore()
        Console.write(output, Array("\n".utf8))
        switch outcome {
        case .line(let line): return line
        case .endOfInput: throw .general(context, "no password was typed (end of input).", hint: nil)
        case .tooLong: throw tooLong(context)
        }
    }

    private static func tooLong(_ context: String) -> CommandFailure {
        .general(context, "the password is longer than \(SecretLine.capacity) bytes.", hint: nil)
    }
}

/// Turns terminal echo off for as long as it lives, and back on if the user interrupts.
private final class EchoGuard {
    private let fd: Int32
    private var saved = termios()
    private var active = false

    init(fd: Int32) {
        self.fd = fd
        guard tcgetattr(fd, &saved) == 0 else { return }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Line editing stays on, so the user can correct typos and ends the line with Return.
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return }
        active = true
        InterruptRestore.arm(fd: fd, settings: saved)
    }

    func restore() {
        guard active else { return }
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        InterruptRestore.disarm()
        active = false
    }

    deinit { restore() }
}

/// A Ctrl-C during a prompt must not leave the terminal without echo. The signal handler can
/// capture nothing, so the settings to restore sit in process-wide storage that only the main
/// thread writes, before the handler is installed.
private enum InterruptRestore {
    nonisolated(unsafe) static var fd: Int32 = -1
    /// On the heap, not a `static var settings = termios()`: Swift 6.3 emits such a statically
    /// initialised global with the C struct's interior padding left out (57 bytes instead of 60),
    /// so storing a termios into it wrote 3 bytes past its end (AddressSanitizer:
    /// global-buffer-overflow, scripts/sanitizers.sh).
    nonisolated(unsafe) static let settings: UnsafeMutablePointer<termios> = {
        let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        storage.initialize(to: termios())
        return storage
    }()

    static func arm(fd: Int32, settings: termios) {
        InterruptRestore.fd = fd
        InterruptRestore.settings.pointee = settings
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                if InterruptRestore.fd >= 0 { _ = tcsetattr(InterruptRestore.fd, TCSAFLUSH, InterruptRestore.settings) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    static func disarm() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
        fd = -1
    }
}
