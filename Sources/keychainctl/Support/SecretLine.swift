import CKeychainSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of secret input, read into memory that is kept out of swap (mlock) and overwritten
/// before it is freed.
///
/// A growing array would leave a copy of the first bytes behind at every reallocation; this
/// buffer never moves. The caller gets one exact-size copy, which it wipes with ``wipe(_:)``
/// when it is done; the `String` a keychain call finally needs cannot be wiped (see SECURITY.md).
enum SecretLine {
    /// Longer lines are refused rather than read in pieces: 16 KiB holds any password or token
    /// and stays within the smallest common mlock limit (64 KiB).
    static let capacity = 16 * 1024

    enum Outcome {
        case line([UInt8])
        case endOfInput
        case tooLong
    }

    /// Reads up to a newline (dropped, with a carriage return before it), byte by byte so that
    /// nothing after the line is consumed.
    static func readLine(fd: Int32) -> Outcome {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: Int(getpagesize()))
        // Best effort: without the privilege or the limit for it, the read still works.
        let locked = cks_mlock(buffer.baseAddress, capacity) == 0
        defer {
            cks_secure_zero(buffer.baseAddress, capacity)
            if locked { _ = cks_munlock(buffer.baseAddress, capacity) }
            buffer.deallocate()
        }
        var count = 0
        var overflow = false
        var sawAnything = false
        while true {
            var byte: UInt8 = 0
            let got = read(fd, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            sawAnything = true
            if byte == UInt8(ascii: "\n") { break }
            if count < capacity { buffer[count] = byte; count += 1 } else { overflow = true }
            byte = 0
        }
        if !sawAnything { return .endOfInput }
        if overflow { return .tooLong }
        if count > 0 && buffer[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        return .line(Array(buffer[0..<count]))
    }

    /// Overwrites `bytes` in place (when it is not shared) and empties it.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { cks_secure_zero($0.baseAddress, $0.count) }
        bytes.removeAll()
    }
}
