import CKeychainSystem
import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a password from the controlling terminal: the one reader behind keychainctl's prompts and
/// the terminal authenticator of KeychainAuthentication, so both follow the same rules.
///
/// 1. It opens `/dev/tty` (close-on-exec, so no program started meanwhile inherits it; no-ctty,
///    so it never becomes the controlling terminal by accident). Without one: ``Outcome/notInteractive``.
/// 2. A background job of a shell (the terminal's foreground process group is another) gets
///    ``Outcome/notInteractive``: changing the terminal's settings would stop it with SIGTTOU, and
///    the keystrokes belong to the program in the foreground.
/// 3. Echo goes off before the prompt is written, so nothing typed after the prompt appears is
///    echoed; the switch drops what was typed ahead of the prompt, as sudo does. The terminal is
///    read byte by byte with signals off, so Ctrl-C and Ctrl-D arrive as keys
///    (``PasswordLineEditor`` has what each key does).
/// 4. The line is collected in locked memory that is wiped afterwards (``SecretBuffer``).
/// 5. The terminal's settings are put back before it returns, whatever happened. If SIGINT,
///    SIGTERM, SIGHUP or SIGQUIT arrives meanwhile (`kill`, a closed terminal), the settings are
///    put back first and the signal then takes its usual course (`cks_terminal_guard_begin`);
///    a process that survives it gets ``Outcome/cancelled``.
///
/// One prompt at a time in the process: two threads prompting at once would interleave their
/// prompts and split the keystrokes.
package enum TerminalPasswordReader {
    /// How a prompt ended.
    package enum Outcome: Equatable, CustomStringConvertible {
        /// The line typed, without its Enter. The caller wipes it (``SecretBuffer/wipe(_:)``).
        case line([UInt8])
        /// Ctrl-C, or a signal the process survived.
        case cancelled
        /// Ctrl-D on an empty line, or the terminal went away (hang-up).
        case endOfInput
        /// No controlling terminal, or the process is a background job.
        case notInteractive
        /// More than ``SecretBuffer/capacity`` bytes before Enter.
        case tooLong

        /// Never shows the line.
        package var description: String {
            switch self {
            case .line: "line(<redacted>)"
            case .cancelled: "cancelled"
            case .endOfInput: "endOfInput"
            case .notInteractive: "notInteractive"
            case .tooLong: "tooLong"
            }
        }
    }

    /// Writes `prompt` (control characters shown as `?`, see ``printable(_:)``) on the terminal and
    /// reads one line with echo off; ends the line on the terminal afterwards, since Enter is not echoed.
    package static func read(prompt: String) -> Outcome {
        promptLock.withLock { _ in readAlone(prompt: prompt) }
    }

    /// Whether the process has a controlling terminal it can open.
    package static func terminalAvailable() -> Bool {
        let fd = openTerminal()
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// `text` as it may be shown: control characters, which could move the cursor or rewrite the
    /// prompt, replaced by `?` (line feeds and tabs stay).
    package static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let value = scalar.value
            let control = value < 0x20 && value != 0x0A && value != 0x09 || (0x7F...0x9F).contains(value)
            return control ? "?" : scalar
        }))
    }

    private static let promptLock = Locked(())

    private static func openTerminal() -> Int32 {
        open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    }

    private static func readAlone(prompt: String) -> Outcome {
        let fd = openTerminal()
        guard fd >= 0 else { return .notInteractive }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0, tcgetpgrp(fd) == getpgrp() else { return .notInteractive }
        var quiet = saved
        // No echo; byte by byte rather than line by line, so Ctrl-C and Ctrl-D arrive as bytes
        // instead of raising SIGINT or ending the input; no Ctrl-V literal-next, which would hide Ctrl-C.
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &quiet.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        // The guard first, so that no moment passes with echo off and no way back.
        _ = cks_terminal_guard_begin(fd, &saved)
        defer { cks_terminal_guard_end() }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return .notInteractive }
        // TCSADRAIN, not TCSAFLUSH: what is typed after Enter (the next command) is kept.
        defer { _ = tcsetattr(fd, TCSADRAIN, &saved) }
        send(fd, printable(prompt))
        let outcome = readLine(fd)
        send(fd, "\n")
        return outcome
    }

    private static func readLine(_ fd: Int32) -> Outcome {
        var editor = PasswordLineEditor()
        var byte: UInt8 = 0
        defer { withUnsafeMutableBytes(of: &byte) { cks_secure_zero($0.baseAddress, $0.count) } }
        while true {
            if cks_terminal_guard_interrupted() != 0 { return .cancelled }
            let count = readByte(fd, into: &byte)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            // End of input or an error: the terminal went away, which is no password.
            guard count == 1 else { return .endOfInput }
            if let outcome = editor.take(byte) { return outcome }
        }
    }

    private static func send(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// read(2) of one byte; outside the enum, whose own `read(prompt:)` hides the system call there.
private func readByte(_ fd: Int32, into byte: inout UInt8) -> Int {
    read(fd, &byte, 1)
}
