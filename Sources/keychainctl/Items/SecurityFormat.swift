import Foundation
import KeychainctlCommandLine

/// The byte rendering macOS `security` uses for attribute values, passwords and keychain names,
/// so that scripts which parse `find-generic-password -g` or `dump-keychain` output read ours.
///
/// The rule: bytes that are all printable ASCII (space to `~`, except backslash) print in double
/// quotes. Otherwise the bytes print as `0x` and upper-case hex; if some of them are printable,
/// two spaces and a quoted form follow in which every other byte is a backslash and three octal
/// digits. When none is printable, the hex is followed by a single space (a quirk of
/// `security`'s output that parsers of it have come to expect, e.g. `0x00000007 <blob>=`).
enum SecurityFormat {
    static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\\")
    }

    /// The rendering of `bytes`; empty for no bytes.
    static func buffer(_ bytes: [UInt8]) -> String {
        let anyPlain = bytes.contains(where: isPlain)
        let anyOther = bytes.contains { !isPlain($0) }
        var text = ""
        if anyOther {
            text += "0x" + bytes.map { hexByte($0, uppercase: true) }.joined()
            text += anyPlain ? "  " : " "
        }
        if anyPlain {
            text += "\""
            for byte in bytes {
                if isPlain(byte) {
                    text.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    text += "\\" + String(byte >> 6 & 7) + String(byte >> 3 & 7) + String(byte & 7)
                }
            }
            text += "\""
        }
        return text
    }

    /// A 32-bit value as `security` prints it: its four big-endian bytes through ``buffer(_:)``,
    /// so a four-character code reads `"note"` and a small number `0x00000007 `.
    static func uint32(_ value: UInt32) -> String {
        buffer(bigEndianBytes(value))
    }

    static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A date as the keychain's time format stores it: `YYYYMMDDhhmmssZ` and a NUL, in UTC.
    static func timeDateBytes(_ date: Date) -> [UInt8] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let text = String(format: "%04d%02d%02d%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                          parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        return Array(text.utf8) + [0]
    }

    /// The form `find-generic-password -w` prints a password in (``PasswordOnlyFormat``, shared
    /// with the front program).
    static func passwordOnly(_ bytes: [UInt8]) -> [UInt8] {
        PasswordOnlyFormat.bytes(bytes)
    }

    static func hexByte(_ byte: UInt8, uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
