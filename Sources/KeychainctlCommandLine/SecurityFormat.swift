/// The byte rendering macOS `security` uses for attribute values, passwords and keychain names,
/// so that scripts which parse `find-generic-password -g` or `dump-keychain` output read ours.
///
/// The rule: bytes that are all printable ASCII (space to `~`, except backslash) print in double
/// quotes. Otherwise the bytes print as `0x` and upper-case hex; if some of them are printable,
/// two spaces and a quoted form follow in which every other byte is a backslash and three octal
/// digits. When none is printable, the hex is followed by a single space (a quirk of
/// `security`'s output that parsers of it have come to expect, e.g. `0x00000007 <blob>=`).
package enum SecurityFormat {
    package static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\\")
    }

    /// The rendering of `bytes`; empty for no bytes.
    package static func buffer(_ bytes: [UInt8]) -> String {
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
    package static func uint32(_ value: UInt32) -> String {
        buffer(bigEndianBytes(value))
    }

    package static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// A date (seconds since 2001, as `cdat` and `mdat` hold it) as the keychain's time format
    /// stores it: `YYYYMMDDhhmmssZ` and a NUL, in UTC, the fraction of a second dropped. Plain
    /// arithmetic on the proleptic Gregorian calendar (days to civil dates as in Howard Hinnant's
    /// `civil_from_days`), so that the front prints it without Foundation's Calendar.
    package static func timeDateBytes(referenceSeconds: Double) -> [UInt8] {
        let unixSeconds = Int64((referenceSeconds + 978_307_200).rounded(.down))
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = unixSeconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int64, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        let text = digits(year, 4) + digits(month, 2) + digits(day, 2)
            + digits(secondOfDay / 3_600, 2) + digits(secondOfDay / 60 % 60, 2) + digits(secondOfDay % 60, 2) + "Z"
        return Array(text.utf8) + [0]
    }

    /// The form `find-generic-password -w` prints a password in: the bytes as they are when all
    /// are printable, otherwise lower-case hex. (`security` prints each byte with `%02x` of a
    /// signed char, which turns bytes above 0x7F into eight digits; keychainctl prints two.)
    package static func passwordOnly(_ bytes: [UInt8]) -> [UInt8] {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return bytes }
        return Array(bytes.map { hexByte($0, uppercase: false) }.joined().utf8)
    }

    package static func hexByte(_ byte: UInt8, uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
