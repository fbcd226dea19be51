import CKeychainSystem
package import Crypto
package import Foundation

/// The Diffie-Hellman half of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7`
/// session: RFC 2409's Second Oakley Group (the 1024-bit MODP prime, generator 2), then
/// HKDF-SHA256 of the shared secret to a 16-byte AES key, as the spec and its clients
/// (libsecret, Python's secretstorage, gnome-keyring) do it.
///
/// Only a server's side: a fresh private exponent per session, used once and wiped. The
/// exponentiations are `MontgomeryModulus.power`, constant-time in the exponent.
package enum OakleyGroup2 {
    /// Bytes in a public key or shared secret written at full width.
    package static let byteCount = UInt1024.byteCount

    /// 2^1024 − 2^960 − 1 + 2^64 · ⌊2^894 · π + 129093⌋ (RFC 2409, section 6.2).
    package static let prime = UInt1024(hexadecimal:
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
            + "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
            + "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF")!
    static let primeMinusOne = prime.subtractingReportingBorrow(.one).difference
    package static let generator: UInt1024 = { var two = UInt1024(); two[0] = 2; return two }()
    /// The prime's Montgomery constants, computed from it at first use.
    package static let modulus = MontgomeryModulus(prime)

    /// A client's public key, as sent in the `v` (an `ay`) of `OpenSession`: an unsigned
    /// big-endian integer. libsecret built on libgcrypt and secretstorage send it without leading
    /// zero bytes (1…128 bytes); libsecret built on GnuTLS exports it with a leading zero byte when
    /// the top bit is set (129 bytes). Anything longer, empty, or outside 2…p−2 is refused: 0, 1
    /// and p−1 would make the shared secret predictable, and values ≥ p are not group elements:
    /// nil for all of those.
    package static func publicKey(from bytes: Data) -> UInt1024? {
        var body = bytes[...]
        if body.count == byteCount + 1, body.first == 0 { body = body.dropFirst() }
        guard (1...byteCount).contains(body.count) else { return nil }
        let value = UInt1024(bigEndianBytes: body)
        guard isUsable(value) else { return nil }
        return value
    }

    /// Whether `value` lies in 2…p−2 (1 < value < p−1).
    package static func isUsable(_ value: UInt1024) -> Bool {
        UInt1024.one < value && value < primeMinusOne
    }

    /// A fresh private exponent: 1024 bits from the system's generator (getrandom(2) on Linux),
    /// drawn again in the (2^-64-likely) case it is not in 2…p−2.
    package static func randomPrivateExponent() -> UInt1024 {
        var generator = SystemRandomNumberGenerator()
        var exponent = UInt1024()
        while true {
            exponent.withLimbs { limbs in
                for index in limbs.indices { limbs[index] = generator.next() }
            }
            if isUsable(exponent) { return exponent }
        }
    }

    /// Our public key and the session's AES key for a client's public key. `privateExponent` is
    /// wiped (in its own storage, hence `inout`) before this returns.
    package static func agree(clientPublicKey: UInt1024, privateExponent: inout UInt1024)
        -> (publicKey: Data, aesKey: SymmetricKey) {
        defer { privateExponent.wipe() }
        let ours = modulus.power(generator, privateExponent)
        var shared = modulus.power(clientPublicKey, privateExponent)
        defer { shared.wipe() }
        var sharedBytes = shared.bigEndianBytes
        defer { wipe(&sharedBytes) }
        let aesKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: sharedBytes), outputByteCount: 16)
        return (Data(ours.bigEndianBytes), aesKey)
    }

    /// Overwrites a byte buffer in place, in a way the optimiser keeps.
    package static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { cks_secure_zero(base, $0.count) } }
    }
}
