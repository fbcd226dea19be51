#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Asks for the keychain password on the process's controlling terminal, like `sudo` does.
///
/// It opens `/dev/tty` (so it works while standard input and output are redirected), writes the
/// reason (the `kSecUseOperationPrompt` or `localizedReason` text) and `Password: `, and reads
/// what is typed without echoing it. Ctrl-C, or Ctrl-D on an empty line, cancels
/// (``AuthenticationReply/cancel``); Backspace deletes the last character and Ctrl-U the line.
/// After a wrong password the next request shows `Sorry, try again.` With no terminal (a
/// service, `setsid`, CI), or from a background job of a shell, the reply is
/// ``AuthenticationReply/notInteractive``.
///
/// The terminal's settings are restored before it returns, whatever happened, and the bytes
/// read are wiped. (The returned `String` itself cannot be wiped: Swift strings are immutable
/// copies; the keychain drops it as soon as it has derived the key.)
public struct TerminalAuthenticator: KeychainAuthenticator {
    /// Makes one; all instances share the one terminal, and prompt one at a time.
    public init() {}

    /// Prompts once on the controlling terminal.
    public func authenticate(_ request: AuthenticationRequest) -> AuthenticationReply {
        // Two threads prompting at once would interleave their prompts and split the keystrokes.
        Self.promptLock.withLock { _ in Self.prompt(request) }
    }

    private static let promptLock = Locked(())

    /// Whether the process has a controlling terminal it can open.
    static func terminalAvailable() -> Bool {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// The longest password read; further bytes are ignored (a paste gone wrong, not a password).
    static let capacity = 4096

    private static func prompt(_ request: AuthenticationRequest) -> AuthenticationReply {
        // O_NOCTTY: never make this the controlling terminal by accident. O_CLOEXEC: a child
        // started by another thread meanwhile must not inherit the terminal we are reading.
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return .notInteractive }
        defer { close(fd) }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return .notInteractive }
        // A background job (`tool &`) must not prompt: changing the terminal's settings would
        // stop it with SIGTTOU, and the keystrokes belong to the foreground program anyway.
        guard tcgetpgrp(fd) == getpgrp() else { return .notInteractive }
        var quiet = saved
        // No echo; byte by byte (not line by line) so Ctrl-C and Ctrl-D arrive as bytes instead of
        // raising SIGINT or ending the input; no Ctrl-V literal-next, which would hide Ctrl-C.
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // Switch before writing the prompt, so nothing typed after the prompt appears is echoed;
        // TCSAFLUSH drops anything typed ahead of the prompt, as sudo does.
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else { return .notInteractive }
        defer { _ = tcsetattr(fd, TCSADRAIN, &saved) }

        var banner = ""
        if request.previousAttemptFailed {
            banner += "Sorry, try again.\n"
        } else if !request.reason.isEmpty {
            banner += printable(request.reason) + "\n"
        }
        banner += "Password: "
        send(fd, banner)
        let reply = readPassword(fd)
        // Enter (or the cancelling key) was not echoed; end the line ourselves.
        send(fd, "\n")
        return reply
    }

    private static func readPassword(_ fd: Int32) -> AuthenticationReply {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        buffer.initialize(repeating: 0)
        var length = 0
        var byte: UInt8 = 0
        defer {
            wipe(UnsafeMutableRawBufferPointer(buffer))
            buffer.deallocate()
            withUnsafeMutableBytes(of: &byte) { wipe($0) }
        }
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            // End of input or an error: the terminal went away (hang-up), which is no password.
            guard count == 1 else { return .cancel }
            switch byte {
            case 0x03:                      // Ctrl-C
                return .cancel
            case 0x04:                      // Ctrl-D: cancels only on an empty line, as at a shell
                if length == 0 { return .cancel }
            case 0x0A, 0x0D:                // Enter
                return .password(String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<length]), as: UTF8.self))
            case 0x7F, 0x08:                // Backspace: remove one whole UTF-8 character
                while length > 0 {
                    length -= 1
                    let removed = buffer[length]
                    buffer[length] = 0
                    if removed & 0xC0 != 0x80 { break }
                }
            case 0x15:                      // Ctrl-U: start the line again
                for index in 0..<length { buffer[index] = 0 }
                length = 0
            case 0x00..<0x20 where byte != 0x09:
                // Other control keys (arrows send ESC sequences) are not part of a password.
                continue
            default:
                if length < capacity {
                    buffer[length] = byte
                    length += 1
                }
            }
        }
    }

    /// The reason as it may be shown: control characters (which could move the cursor or rewrite
    /// the prompt) replaced by `?`.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let value = scalar.value
            let control = value < 0x20 && value != 0x0A && value != 0x09 || (0x7F...0x9F).contains(value)
            return control ? "?" : scalar
        }))
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

    /// Overwrites memory with zeros in a way the optimiser may not drop.
    private static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        explicit_bzero(base, bytes.count)
    }
}
#endif
