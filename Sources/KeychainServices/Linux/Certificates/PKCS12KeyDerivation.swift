#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation

/// The hash functions PKCS#12 files name for their MAC and key derivation.
enum PKCS12Digest: Sendable {
    case sha1, sha256, sha384, sha512

    init?(oid: String) {
        switch oid {
        case "1.3.14.3.2.26": self = .sha1
        case "2.16.840.1.101.3.4.2.1": self = .sha256
        case "2.16.840.1.101.3.4.2.2": self = .sha384
        case "2.16.840.1.101.3.4.2.3": self = .sha512
        default: return nil
        }
    }

    /// Output and block sizes in bytes (u and v of RFC 7292, appendix B).
    var outputSize: Int {
        switch self {
        case .sha1: return 20
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    var blockSize: Int { self == .sha384 || self == .sha512 ? 128 : 64 }

    func hash(_ data: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: return Array(Insecure.SHA1.hash(data: data))
        case .sha256: return Array(SHA256.hash(data: data))
        case .sha384: return Array(SHA384.hash(data: data))
        case .sha512: return Array(SHA512.hash(data: data))
        }
    }

    func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        let symmetric = SymmetricKey(data: key)
        switch self {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: symmetric))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: symmetric))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: symmetric))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: data, using: symmetric))
        }
    }
}

/// PKCS#12's own password-based key derivation (RFC 7292, appendix B.2), which the files' MAC
/// key comes from even when their contents use PBES2. Written here because swift-crypto has no
/// implementation; it is a few lines over its hash functions, checked against OpenSSL's output
/// by the tests (every file `openssl pkcs12 -export` writes is verified with it).
enum PKCS12KeyDerivation {
    /// Which key is derived: 1 encryption key, 2 IV, 3 MAC key.
    enum Purpose: UInt8 { case key = 1, iv = 2, mac = 3 }

    /// The password as PKCS#12 feeds it to the derivation: UTF-16 big-endian with two zero bytes
    /// at the end (an empty password is just the two zeros).
    static func passwordBytes(_ password: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in password.utf16 { bytes.append(UInt8(unit >> 8)); bytes.append(UInt8(unit & 0xFF)) }
        return bytes + [0, 0]
    }

    static func derive(password: [UInt8], salt: [UInt8], iterations: Int, purpose: Purpose,
                       digest: PKCS12Digest, length: Int) -> [UInt8] {
        let v = digest.blockSize
        let d = [UInt8](repeating: purpose.rawValue, count: v)
        func stretched(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let count = v * ((bytes.count + v - 1) / v)
            return (0..<count).map { bytes[$0 % bytes.count] }
        }
        var i = stretched(salt) + stretched(password)
        var output: [UInt8] = []
        while output.count < length {
            var a = digest.hash(d + i)
            for _ in 1..<max(iterations, 1) { a = digest.hash(a) }
            output += a
            guard output.count < length, !i.isEmpty else { break }
            // I_j = (I_j + B + 1) mod 2^(8v) for every v-byte block of I, B being A stretched to v bytes.
            let b = (0..<v).map { a[$0 % a.count] }
            for start in stride(from: 0, to: i.count, by: v) {
                var carry = 1
                for k in stride(from: v - 1, through: 0, by: -1) {
                    let sum = Int(i[start + k]) + Int(b[k]) + carry
                    i[start + k] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
            }
        }
        return Array(output.prefix(length))
    }
}
#endif
