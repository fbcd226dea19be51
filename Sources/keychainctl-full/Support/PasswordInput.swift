import Foundation
import KeychainServices
import KeychainStore
import KeychainTerminal

/// Reads passwords without putting them in the process listing.
///
/// When standard input is a terminal, the prompt is written to the terminal (/dev/tty) and the
/// answer is read there with echo off, by the reader the keychain's own password prompt uses
/// (``TerminalPasswordReader``: Backspace and Ctrl-U edit, Ctrl-C cancels, Ctrl-D on an empty
/// line ends the input, a background job is refused). When it is not (a pipe, a file), one line
/// is read from standard input and nothing is prompted, so that
/// `printf '%s\n' "$pw" | keychainctl add-generic-password -a me -s svc -w` works in scripts.
/// Either way the line lands in locked memory that is wiped afterwards (``SecretBuffer``).
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
            SecretBuffer.wipe(&second)
            if same { return first }
            SecretBuffer.wipe(&first)
            Console.err("passwords don't match\n")
        }
        throw .general(context, "the passwords typed did not match.", hint: "Type the same password at both prompts.")
    }

    /// Prompts on the controlling terminal and reads one line with echo off.
    private static func readFromTerminal(prompt: String, context: String) throws(CommandFailure) -> [UInt8] {
        switch TerminalPasswordReader.read(prompt: prompt) {
        case .line(let line):
            return line
        case .cancelled:
            // The keychain's own word for a prompt the user dismissed: errSecUserCanceled, exit 128.
            throw .status(errSecUserCanceled, context, hint: "The password prompt was cancelled (Ctrl-C); nothing was changed.")
        case .endOfInput:
            throw .general(context, "no password was typed (end of input).")
        case .notInteractive:
            throw .general(context, "cannot prompt for the password: the process is a background job, or has no controlling terminal.",
                           hint: "Run the command in the foreground, or pipe the password to its standard input.")
        case .tooLong:
            throw tooLong(context)
        }
    }

    private static func tooLong(_ context: String) -> CommandFailure {
        .general(context, "the password is longer than \(SecretBuffer.capacity) bytes.")
    }
}
