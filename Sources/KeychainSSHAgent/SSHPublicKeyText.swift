import Crypto
import Foundation

/// How OpenSSH shows a public key to people: its fingerprint (`SHA256:` and the unpadded
/// base64 of the SHA-256 of the blob, as `ssh-keygen -l` and `ssh-add -l` print it) and its
/// `authorized_keys` line (`TYPE BASE64 COMMENT`, sshd(8)'s AUTHORIZED_KEYS FILE FORMAT).
package enum SSHPublicKeyText {
    package static func fingerprint(ofBlob blob: [UInt8]) -> String {
        let digest = Data(SHA256.hash(data: blob)).base64EncodedString()
        return "SHA256:" + digest.replacingOccurrences(of: "=", with: "")
    }

    /// One `authorized_keys` line, without a newline. Line breaks in the comment would split
    /// the entry, so they become spaces.
    package static func authorizedKeysLine(blob: [UInt8], comment: String) -> String {
        let type = SSHKeyEncoding.keyType(ofBlob: blob) ?? "unknown"
        let cleaned = String(comment.map { $0.isNewline ? " " : $0 }).trimmingCharacters(in: .whitespaces)
        return type + " " + Data(blob).base64EncodedString() + (cleaned.isEmpty ? "" : " " + cleaned)
    }

    /// The line `ssh-keygen -l` prints: size in bits, fingerprint, comment, and the kind in
    /// capitals, e.g. `256 SHA256:… me@host (ECDSA)`.
    package static func listingLine(blob: [UInt8], comment: String) -> String {
        let (bits, kind) = sizeAndKind(ofBlob: blob)
        let shownComment = comment.isEmpty ? "no comment" : comment.filter { !$0.isNewline }
        return "\(bits) \(fingerprint(ofBlob: blob)) \(shownComment) (\(kind))"
    }

    /// The key's size in bits (the curve's, or the RSA modulus's) and OpenSSH's short name of its kind.
    static func sizeAndKind(ofBlob blob: [UInt8]) -> (bits: Int, kind: String) {
        var reader = SSHWireReader(blob)
        guard let type = try? reader.readText() else { return (0, "UNKNOWN") }
        if type == SSHKeyType.rsa {
            guard (try? reader.readPositiveMPInt()) != nil, let modulus = try? reader.readPositiveMPInt(),
                  let first = modulus.first else { return (0, "RSA") }
            return ((modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount), "RSA")
        }
        if let curve = SSHCurve.allCases.first(where: { $0.keyType == type }) {
            return (curve == .p521 ? 521 : curve.byteCount * 8, "ECDSA")
        }
        if type == SSHKeyType.ed25519 { return (256, "ED25519") }
        return (0, type.uppercased())
    }
}
