import BigInt
import CKeychainSystem
import Crypto
import Foundation

/// The Diffie-Hellman half of the Secret Service's `dh-ietf1024-sha256-aes128-cbc-pkcs7`
/// session: RFC 2409's Second Oakley Group (the 1024-bit MODP prime, generator 2), then
/// HKDF-SHA256 of the shared secret to a 16-byte AES key, as the spec and its clients
/// (libsecret, Python's secretstorage, gnome-keyring) do it.
///
/// Only a server's side: a fresh private exponent per session, used once and wiped.
enum OakleyGroup2 {
    /// Bytes in a public key or shared secret written at full width.
    static let byteCount = 128

    /// 2^1024 − 2^960 − 1 + 2^64 · ⌊2^894 · π + 129093⌋ (RFC 2409, section 6.2).
    static let prime = BigUInt(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A0879"
            + "8E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B"
            + "0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF",
        radix: 16)!
    static let primeMinusOne = prime - 1
    static let generator: BigUInt = 2

    /// A client's public key, as sent in the `v` (an `ay`) of `OpenSession`: an unsigned
    /// big-endian integer. libsecret built on libgcrypt and secretstorage send it without leading
    /// zero bytes (1…128 bytes); libsecret built on GnuTLS exports it with a leading zero byte when
    /// the top bit is set (129 bytes). Anything longer, empty, or outside 2…p−2 is refused: 0, 1
    /// and p−1 would make the shared secret predictable, and values ≥ p are not group elements.
    static func publicKey(from bytes: Data) throws(SessionError) -> BigUInt {
        var body = bytes[...]
        if body.count == byteCount + 1, body.first == 0 { body = body.dropFirst() }
        guard (1...byteCount).contains(body.count) else { throw .invalidPublicKey }
        let value = BigUInt(Data(body))
        guard value > 1, value < primeMinusOne else { throw .invalidPublicKey }
        return value
    }

    /// A fresh private exponent: 1024 bits from the system's generator (getrandom(2) on Linux),
    /// drawn again in the (2^-64-likely) case it is not in 2…p−2.
    static func randomPrivateExponent() -> BigUInt {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        defer { wipe(&bytes) }
        var generator = SystemRandomNumberGenerator()
        while true {
            for index in bytes.indices { bytes[index] = generator.next() }
            var exponent = bytes.withUnsafeBytes { BigUInt($0) }
            if exponent > 1, exponent < primeMinusOne { return exponent }
            wipe(&exponent)
        }
    }

    /// Our public key and the session's AES key for a client's public key. `privateExponent` is
    /// wiped (in its own storage, hence `inout`) before this returns.
    static func agree(clientPublicKey: BigUInt, privateExponent: inout BigUInt)
        -> (publicKey: Data, aesKey: SymmetricKey) {
        defer { wipe(&privateExponent) }
        let ours = generator.power(privateExponent, modulus: prime)
        var shared = clientPublicKey.power(privateExponent, modulus: prime)
        defer { wipe(&shared) }
        var sharedBytes = fullWidthBytes(of: shared)
        defer { wipe(&sharedBytes) }
        let aesKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: sharedBytes), outputByteCount: 16)
        return (Data(fullWidthBytes(of: ours)), aesKey)
    }

    /// `value` (< p) as exactly 128 big-endian bytes, left-padded with zeros. Both ends of the
    /// spec pad the shared secret this way before HKDF; leaving the zeros off would give another
    /// key in about one session out of 256.
    static func fullWidthBytes(of value: BigUInt) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var index = byteCount - 1
        for word in value.words {
            var word = word
            for _ in 0..<(UInt.bitWidth / 8) {
                guard index >= 0 else { break }
                bytes[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index -= 1
            }
        }
        return bytes
    }

    /// Overwrites a byte buffer in place, in a way the optimiser keeps.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { cks_secure_zero(base, $0.count) } }
    }

    /// Clears a BigUInt's words in its own storage, from the top down so that each word is zero
    /// before BigInt drops it from the count. Best effort: the temporaries inside BigInt's own
    /// arithmetic are freed without being cleared.
    static func wipe(_ value: inout BigUInt) {
        var bit = value.bitWidth - 1
        while bit >= 0 {
            if value[bitAt: bit] { value[bitAt: bit] = false }
            bit -= 1
        }
    }
}
