import _CryptoExtras
import Foundation

/// A public key as one line of OpenSSH's `authorized_keys` / `.pub` format (RFC 4253 §6.6 for
/// RSA, RFC 5656 §3.1 for ECDSA, RFC 8709 for Ed25519), the form of `security export -f openssh2`: the algorithm name,
/// the base64 key blob, and the key's label as the comment.
enum OpenSSHPublicKey {
    static func line(_ facts: KeyFiles.KeyFacts, comment: String?) throws -> String {
        var blob: [UInt8] = []
        let name: String
        if facts.isEd25519 {
            name = "ssh-ed25519"  // RFC 8709: the name, then the 32-byte key
            blob = string(Array(name.utf8)) + string(facts.external)
        } else if facts.isRSA {
            let primitives = try _RSA.Signing.PublicKey(unsafeDERRepresentation: Data(facts.external)).getKeyPrimitives()
            name = "ssh-rsa"
            blob = string(Array(name.utf8)) + mpint(Array(primitives.publicExponent)) + mpint(Array(primitives.modulus))
        } else {
            guard let curve = ["nistp256": 256, "nistp384": 384, "nistp521": 521].first(where: { $0.value == facts.bits })?.key else {
                throw KeyFileError("the key's curve is not P-256, P-384 or P-521")
            }
            name = "ecdsa-sha2-\(curve)"
            blob = string(Array(name.utf8)) + string(Array(curve.utf8)) + string(facts.external)
        }
        // A comment is one word-ish field at the end of the line; line breaks would split the entry.
        let cleaned = comment?.filter { !$0.isNewline }.trimmingCharacters(in: .whitespaces) ?? ""
        return name + " " + Data(blob).base64EncodedString() + (cleaned.isEmpty ? "" : " " + cleaned) + "\n"
    }

    /// SSH's length-prefixed string.
    static func string(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + bytes
    }

    /// SSH's mpint for a non-negative big-endian integer: no leading zero bytes, except one
    /// when the top bit is set (it would read as negative).
    static func mpint(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if let first = bytes.first, first & 0x80 != 0 { bytes.insert(0, at: 0) }
        return string(bytes)
    }
}
