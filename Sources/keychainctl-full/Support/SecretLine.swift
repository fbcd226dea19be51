import KeychainStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of a secret piped to standard input, read into locked memory that is wiped
/// afterwards (``SecretBuffer``). The terminal has its own reader (``TerminalPasswordReader``);
/// this one takes the bytes as they come, with no editing keys.
enum SecretLine {
    enum Outcome {
        case line([UInt8])
        case endOfInput
        case tooLong
    }

    /// Reads up to a newline (dropped, with a carriage return before it), byte by byte so that
    /// nothing after the line is consumed. Lines longer than ``SecretBuffer/capacity`` are
    /// refused rather than read in pieces.
    static func readLine(fd: Int32) -> Outcome {
        var buffer = SecretBuffer()
        var overflow = false
        var sawAnything = false
        while true {
            var byte: UInt8 = 0
            let got = read(fd, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            if !buffer.append(byte) { overflow = true }
            byte = 0
        }
        if !sawAnything { return .endOfInput }
        if overflow { return .tooLong }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        return .line(buffer.bytes())
    }
}
