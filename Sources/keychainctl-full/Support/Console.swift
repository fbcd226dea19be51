import Foundation
import KeychainctlCommandLine
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to standard output and standard error, so that output written by
/// interactive mode, prompts and errors appears in the order it was produced.
enum Console {
    /// The name errors are prefixed with: the basename of argv[0], as `security` does, so a copy
    /// installed as `security` reports itself as `security`.
    static var programName: String {
        let path = CommandLine.arguments.first ?? "keychainctl"
        return path.split(separator: "/").last.map(String.init) ?? "keychainctl"
    }

    static func out(_ text: String) { write(STDOUT_FILENO, Array(text.utf8)) }
    static func err(_ text: String) { write(STDERR_FILENO, Array(text.utf8)) }
    static func outBytes(_ bytes: [UInt8]) { write(STDOUT_FILENO, bytes) }

    /// Reports a failure on standard error, on one line.
    static func report(_ failure: CommandFailure) {
        err(failure.line(program: programName) + "\n")
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) { DescriptorOutput.write(fd, bytes) }

    /// True when standard input is a terminal.
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) != 0 }

    /// Reads one line from standard input, byte by byte so that nothing after the line is
    /// consumed (interactive mode and password reads share standard input). The newline, and a
    /// carriage return before it, are dropped. Nil at end of input with nothing read.
    static func readLine(fd: Int32 = STDIN_FILENO) -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return line.isEmpty ? nil : line }
            if byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
    }
}

extension String {
    /// The text with its first letter capitalised, for a lower-case error description that
    /// starts a message.
    var capitalisedFirst: String { prefix(1).uppercased() + dropFirst() }
}
