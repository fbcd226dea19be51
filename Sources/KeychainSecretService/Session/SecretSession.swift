import CKeychainSystem
import Crypto
import _CryptoExtras
import KeychainCrypto
package import Foundation

/// The transport algorithms a client may ask for in `OpenSession`.
package enum SessionAlgorithm: String, Sendable, CaseIterable {
    /// Secrets cross D-Bus as they are.
    case plain = "plain"
    /// Diffie-Hellman over RFC 2409's 1024-bit group, HKDF-SHA256 to an AES-128 key, each secret
    /// sent as AES-128-CBC with PKCS#7 padding under a fresh random IV.
    case dhIETF1024SHA256AES128CBCPKCS7 = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

    /// The algorithm with this name (exact, case-sensitive, as the spec spells it), or nil.
    package init?(name: String) { self.init(rawValue: name) }

    /// The name as it appears on D-Bus.
    package var name: String { rawValue }
}

/// Why a session could not be opened or a secret not be read. None carries detail: the D-Bus
/// layer answers `NotSupported` for the first and `InvalidArgs` for the others.
package enum SessionError: Error, Sendable, Equatable {
    /// The client asked for an algorithm other than the two above.
    case unsupportedAlgorithm
    /// The client's DH public key is empty, too long, or not a usable group element.
    case invalidPublicKey
    /// The `(oayays)` a client sent cannot be read under this session: wrong IV size, a
    /// ciphertext that is not whole blocks, bad padding, or parameters under `plain`.
    case invalidSecret
}

/// One negotiated session's cipher: what the daemon keeps per Secret Service session object to
/// read the secrets a client sends and to encrypt the ones it returns. No D-Bus in it.
///
/// Its description, debug description and mirror name only the algorithm, never the key.
package struct SecretSession: Sendable {
    package let algorithm: SessionAlgorithm
    /// The AES-128 key under DH, nil under `plain`. swift-crypto clears its bytes when the last
    /// copy of the session goes away.
    private let key: SymmetricKey?

    private init(algorithm: SessionAlgorithm, key: SymmetricKey?) {
        self.algorithm = algorithm
        self.key = key
    }

    /// Opens a session. For `plain` the client's input is ignored (clients send an empty
    /// string) and the output is empty. For DH, `clientInput` is the client's public key
    /// (big-endian, as sent in the `v` of `OpenSession`) and the output is ours, 128 bytes
    /// big-endian, to send back.
    package static func negotiate(_ algorithm: SessionAlgorithm,
                                  clientInput: Data) throws(SessionError) -> (session: SecretSession, output: Data) {
        switch algorithm {
        case .plain:
            return (SecretSession(algorithm: .plain, key: nil), Data())
        case .dhIETF1024SHA256AES128CBCPKCS7:
            return try negotiateDH(clientInput: clientInput, privateExponent: OakleyGroup2.randomPrivateExponent())
        }
    }

    /// `negotiate` by the algorithm's D-Bus name; an unknown name is `.unsupportedAlgorithm`.
    package static func negotiate(algorithmName: String,
                                  clientInput: Data) throws(SessionError) -> (session: SecretSession, output: Data) {
        guard let algorithm = SessionAlgorithm(name: algorithmName) else { throw .unsupportedAlgorithm }
        return try negotiate(algorithm, clientInput: clientInput)
    }

    /// The DH negotiation with a given private exponent (big-endian). Tests use it for known
    /// answers; the daemon never chooses its exponent.
    static func negotiateDH(clientInput: Data,
                            privateExponent: Data) throws(SessionError) -> (session: SecretSession, output: Data) {
        try negotiateDH(clientInput: clientInput, privateExponent: UInt1024(bigEndianBytes: privateExponent))
    }

    private static func negotiateDH(clientInput: Data,
                                    privateExponent: consuming UInt1024) throws(SessionError) -> (session: SecretSession, output: Data) {
        guard let client = OakleyGroup2.publicKey(from: clientInput) else {
            privateExponent.wipe()
            throw .invalidPublicKey
        }
        let agreed = OakleyGroup2.agree(clientPublicKey: client, privateExponent: &privateExponent)
        return (SecretSession(algorithm: .dhIETF1024SHA256AES128CBCPKCS7, key: agreed.aesKey), agreed.publicKey)
    }

    /// Encrypts a secret for the client: the `parameters` and `value` of the `(oayays)` struct.
    /// Under `plain`, no parameters and the bytes themselves; under DH a fresh random 16-byte IV
    /// and the AES-128-CBC ciphertext of the PKCS#7-padded secret.
    package func encode(_ secret: Data) throws(SessionError) -> (parameters: Data, value: Data) {
        guard let key else { return (Data(), secret) }
        let iv = Self.freshIV()
        return try Self.encrypt(secret, key: key, iv: iv.iv, ivBytes: iv.bytes)
    }

    /// A fresh random IV from one getrandom(2) call: swift-crypto's own `IV()` makes two (one per
    /// 8 bytes), and every secret a DH session returns needs one.
    /// The IV comes back with its bytes, which become the reply's `parameters` as one copy
    /// (`Data(iv)` went through the IV's iterator byte by byte).
    private static func freshIV() -> (iv: AES._CBC.IV, bytes: Data) {
        var bytes = [UInt8](repeating: 0, count: blockSize)
        let filled = bytes.withUnsafeMutableBytes { Int(cks_random_bytes($0.baseAddress!, $0.count)) }
        guard filled == blockSize, let iv = try? AES._CBC.IV(ivBytes: bytes) else {
            let iv = AES._CBC.IV()
            return (iv, Data(iv))
        }
        return (iv, Data(bytes))
    }

    /// `encode` with a chosen 16-byte IV, for known-answer tests.
    func encode(_ secret: Data, iv: Data) throws(SessionError) -> (parameters: Data, value: Data) {
        guard let key else { return (Data(), secret) }
        guard let cbcIV = try? AES._CBC.IV(ivBytes: iv) else { throw .invalidSecret }
        return try Self.encrypt(secret, key: key, iv: cbcIV, ivBytes: iv)
    }

    /// `ivBytes` are `iv`'s 16 bytes, sent as the `parameters`.
    private static func encrypt(_ secret: Data, key: SymmetricKey, iv: AES._CBC.IV,
                                ivBytes: Data) throws(SessionError) -> (parameters: Data, value: Data) {
        // Padded here rather than by swift-crypto so that the padded copy can be wiped.
        let padLength = blockSize - secret.count % blockSize
        var padded = [UInt8]()
        padded.reserveCapacity(secret.count + padLength)
        padded.append(contentsOf: secret)
        padded.append(contentsOf: repeatElement(UInt8(padLength), count: padLength))
        defer { OakleyGroup2.wipe(&padded) }
        do {
            let ciphertext = try AES._CBC.encrypt(padded, using: key, iv: iv, noPadding: true)
            return (ivBytes, ciphertext)
        } catch {
            // Only a wrong key size or unaligned input throw, and neither can happen here.
            throw .invalidSecret
        }
    }

    /// Reads what a client sent in a `(oayays)`. Every way it can be wrong is the same
    /// `.invalidSecret`, and the padding is checked without branching on its bytes, so a caller
    /// learns nothing about a forged ciphertext beyond "invalid".
    package func decode(parameters: Data, value: Data) throws(SessionError) -> Data {
        guard let key else {
            guard parameters.isEmpty else { throw .invalidSecret }
            return value
        }
        guard parameters.count == Self.blockSize, !value.isEmpty, value.count % Self.blockSize == 0,
              let iv = try? AES._CBC.IV(ivBytes: parameters),
              var padded = try? AES._CBC.decrypt(value, using: key, iv: iv, noPadding: true)
        else { throw .invalidSecret }
        defer { padded.withUnsafeMutableBytes { if let base = $0.baseAddress { cks_secure_zero(base, $0.count) } } }
        guard let length = Self.unpaddedLength(padded) else { throw .invalidSecret }
        return padded.prefix(length)
    }

    private static let blockSize = 16

    /// The length of `padded` without its PKCS#7 padding, or nil if the padding is not 1…16
    /// bytes all equal to the count. Every byte of the last block is looked at whatever the
    /// padding says, and no branch depends on their values until the single verdict.
    static func unpaddedLength(_ padded: Data) -> Int? {
        let count = padded.count
        guard count >= blockSize, count % blockSize == 0 else { return nil }
        return padded.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
            let padLength = bytes[count - 1]
            // 0xFF when padLength is 0 or over 16, else 0.
            var bad = UInt8(truncatingIfNeeded: (Int(padLength) - 1) >> (Int.bitWidth - 1))
            bad |= UInt8(truncatingIfNeeded: (blockSize - Int(padLength)) >> (Int.bitWidth - 1))
            for offset in 0..<blockSize {
                // 0xFF when this byte lies inside the padding, else 0.
                let inPadding = UInt8(truncatingIfNeeded: (offset - Int(padLength)) >> (Int.bitWidth - 1))
                bad |= inPadding & (bytes[count - 1 - offset] ^ padLength)
            }
            return bad == 0 ? count - Int(padLength) : nil
        }
    }
}

extension SecretSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    package var description: String { "SecretSession(\(algorithm.name))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm.name]) }
}
