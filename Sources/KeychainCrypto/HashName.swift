import Crypto
package import Foundation

/// The hashes the primitives here are built over, by the names Apple's algorithm identifiers
/// use (`algid:…:SHA256`). Every one is swift-crypto's but SHA-224, which is ours (``SHA224``).
package enum HashName: String, Sendable, CaseIterable {
    case sha1 = "SHA1", sha224 = "SHA224", sha256 = "SHA256", sha384 = "SHA384", sha512 = "SHA512"

    /// Output bytes.
    package var byteCount: Int {
        switch self {
        case .sha1: return 20
        case .sha224: return 28
        case .sha256: return 32
        case .sha384: return 48
        case .sha512: return 64
        }
    }

    /// Input block bytes (FIPS 180-4): what the PKCS#12 KDF stretches its inputs to.
    package var blockSize: Int { self == .sha384 || self == .sha512 ? 128 : 64 }

    package func hash(_ data: Data) -> Data {
        switch self {
        case .sha1: return Data(Insecure.SHA1.hash(data: data))
        case .sha256: return Data(SHA256.hash(data: data))
        case .sha384: return Data(SHA384.hash(data: data))
        case .sha512: return Data(SHA512.hash(data: data))
        case .sha224: return SHA224.hash(data: data) // swift-crypto has none: see SHA224.swift
        }
    }

    /// HMAC with this hash: swift-crypto's, except for SHA-224, which its `HMAC` cannot take
    /// (it keys only its own hash types), so RFC 2104 is written out over ours.
    package func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        let symmetric = SymmetricKey(data: key)
        switch self {
        case .sha1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: data, using: symmetric))
        case .sha256: return Array(HMAC<SHA256>.authenticationCode(for: data, using: symmetric))
        case .sha384: return Array(HMAC<SHA384>.authenticationCode(for: data, using: symmetric))
        case .sha512: return Array(HMAC<SHA512>.authenticationCode(for: data, using: symmetric))
        case .sha224:
            var block = key.count > blockSize ? [UInt8](hash(Data(key))) : key
            block += [UInt8](repeating: 0, count: blockSize - block.count)
            let inner = hash(Data(block.map { $0 ^ 0x36 } + data))
            return [UInt8](hash(Data(block.map { $0 ^ 0x5c }) + inner))
        }
    }
}
