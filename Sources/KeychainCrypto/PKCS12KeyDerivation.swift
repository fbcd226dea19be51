import Foundation

/// PKCS#12's own password-based key derivation (RFC 7292, appendix B.2), which the files' MAC
/// key comes from even when their contents use PBES2. Written here because swift-crypto has no
/// implementation; it is a few lines over its hash functions, checked against published vectors
/// (KeychainCryptoTests) and OpenSSL's files (every one `openssl pkcs12 -export` writes is
/// verified with it).
package enum PKCS12KeyDerivation {
    /// Which key is derived: 1 encryption key, 2 IV, 3 MAC key.
    package enum Purpose: UInt8, Sendable { case key = 1, iv = 2, mac = 3 }

    /// The password as PKCS#12 feeds it to the derivation: UTF-16 big-endian with two zero bytes
    /// at the end (an empty password is just the two zeros).
    package static func passwordBytes(_ password: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in password.utf16 { bytes.append(UInt8(unit >> 8)); bytes.append(UInt8(unit & 0xFF)) }
        return bytes + [0, 0]
    }

    /// `length` bytes for `purpose`; u and v of RFC 7292 are the hash's output and block sizes.
    package static func derive(password: [UInt8], salt: [UInt8], iterations: Int, purpose: Purpose,
                               digest: HashName, length: Int) -> [UInt8] {
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
            var a = [UInt8](digest.hash(Data(d + i)))
            for _ in 1..<max(iterations, 1) { a = [UInt8](digest.hash(Data(a))) }
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
