/// The form `find-generic-password -w` prints a password in: the bytes as they are when all are
/// printable ASCII, otherwise lower-case hex. (`security` prints each byte with `%02x` of a
/// signed char, which turns bytes above 0x7F into eight digits; keychainctl prints two.)
package enum PasswordOnlyFormat {
    package static func bytes(_ secret: [UInt8]) -> [UInt8] {
        if secret.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return secret }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(secret.count * 2)
        for byte in secret {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return hex
    }
}
