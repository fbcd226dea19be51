import ArgumentParser
import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The value of `--password-fd`: an open file descriptor to read a password from, as one line,
/// or `-` for standard input. For containers and CI, where the password comes from a secret file
/// or a pipe: `keychainctl unlock-keychain --password-fd 3 3</run/secrets/keychain`.
///
/// The line is read the way piped passwords are (``SecretLine``): into locked memory that is
/// wiped afterwards, byte by byte so that nothing after the line is consumed, at most
/// ``SecretBuffer/capacity`` bytes.
struct PasswordDescriptor: ExpressibleByArgument, Equatable {
    /// The descriptor; standard input for `-`.
    let fd: Int32

    init?(argument: String) {
        if argument == PasswordArgument.readMarker {
            fd = STDIN_FILENO
            return
        }
        guard !argument.isEmpty, argument.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let number = Int32(argument) else { return nil }
        fd = number
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// Reads the password. Standard input behaves exactly as when no password is given (a
    /// terminal prompts without echo; a pipe or file gives one line); any other descriptor must be
    /// open for reading, and its first line is the password.
    func read(prompt: String, context: String) throws(CommandFailure) -> [UInt8] {
        if fd == STDIN_FILENO {
            return try PasswordInput.read(prompt: prompt, context: context)
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags != -1 else {
            throw .general(context, "file descriptor \(fd) is not open.",
                           hint: "Open it for the command, as in `keychainctl unlock-keychain --password-fd \(fd) \(fd)<file`, or use --password-fd - to read standard input.")
        }
        guard flags & O_ACCMODE != O_WRONLY else {
            throw .general(context, "file descriptor \(fd) is open for writing only.",
                           hint: "Open it for reading (`\(fd)<file`).")
        }
        switch SecretLine.readLine(fd: fd) {
        case .line(let line):
            return line
        case .endOfInput:
            throw .general(context, "no password was given on file descriptor \(fd) (it is empty).",
                           hint: "Write the password as one line to the file or pipe behind it.")
        case .tooLong:
            throw .general(context, "the password is longer than \(SecretBuffer.capacity) bytes.")
        }
    }
}
