import Crypto
package import _CryptoExtras
package import Foundation

/// RSAES-OAEP (RFC 8017 §7.1) with an empty label and MGF1 over the same hash, for the OAEP
/// hashes swift-crypto's `_RSA` lacks (it has OAEP with SHA-1 and SHA-256 only; those keep using
/// it). The padding is computed here and the RSA operation is ``RSARaw``'s: the public operation
/// to encrypt, swift-crypto's blinded private operation to decrypt.
///
/// Decryption checks every part of the padding without stopping at the first bad one and
/// answers one error for all of them, so that a caller cannot tell which check failed (the
/// attack of Manger, CRYPTO 2001, needs that distinction). The checks are written with masks
/// instead of branches as far as Swift allows; only the final accept-or-refuse and, after a
/// valid padding, the message's length (which the caller learns anyway) depend on the data.
package enum RSAOAEP {
    /// The longest message a modulus of `modulusBytes` bytes can carry with `hash`.
    package static func maximumMessageLength(modulusBytes: Int, hash: HashName) -> Int {
        modulusBytes - 2 * hash.byteCount - 2
    }

    package static func encrypt(_ key: _RSA.Signing.PublicKey, _ message: Data, hash: HashName) throws(PrimitiveError) -> Data {
        let size = (key.keySizeInBits + 7) / 8
        let seed = SymmetricKey(size: .init(bitCount: hash.byteCount * 8)).withUnsafeBytes { Data($0) }
        let encoded = try encode(message, seed: seed, hash: hash, modulusBytes: size)
        return try RSARaw.publicOperation(key, encoded)
    }

    package static func decrypt(_ key: _RSA.Signing.PrivateKey, _ ciphertext: Data, hash: HashName) throws(PrimitiveError) -> Data {
        let size = (key.keySizeInBits + 7) / 8
        guard ciphertext.count == size else { throw .parameter("the ciphertext is not one RSA block long") }
        guard size >= 2 * hash.byteCount + 2 else { throw .parameter("the key is too small for OAEP with this hash") }
        let encoded: Data
        do { encoded = try RSARaw.privateOperation(key, ciphertext) } catch { throw decryptionFailed }
        guard let message = decode(encoded, hash: hash) else { throw decryptionFailed }
        return message
    }

    /// The one answer to every decryption failure, as swift-crypto's OAEP path gives.
    private static var decryptionFailed: PrimitiveError { .parameter("RSA decryption failed") }

    /// EME-OAEP encoding (§7.1.1 step 2) with the given seed: `00 ‖ maskedSeed ‖ maskedDB`,
    /// DB being `lHash ‖ zeros ‖ 01 ‖ message`.
    package static func encode(_ message: Data, seed: Data, hash: HashName, modulusBytes k: Int) throws(PrimitiveError) -> Data {
        let hLen = hash.byteCount
        guard k >= 2 * hLen + 2 else { throw .parameter("the key is too small for OAEP with this hash") }
        guard message.count <= maximumMessageLength(modulusBytes: k, hash: hash) else {
            throw .parameter("the plaintext is longer than this key and padding can encrypt")
        }
        var db = hash.hash(Data())
        db.append(Data(count: k - message.count - 2 * hLen - 2))
        db.append(1)
        db.append(message)
        let maskedDB = xor(db, RSAPadding.mgf1(seed, length: k - hLen - 1, hash: hash))
        let maskedSeed = xor(seed, RSAPadding.mgf1(maskedDB, length: hLen, hash: hash))
        return Data([0]) + maskedSeed + maskedDB
    }

    /// EME-OAEP decoding (§7.1.2 step 3) of a modulus-sized block; nil for any flaw.
    package static func decode(_ encoded: Data, hash: HashName) -> Data? {
        let em = [UInt8](encoded), k = em.count, hLen = hash.byteCount
        guard k >= 2 * hLen + 2 else { return nil }
        let maskedSeed = Data(em[1...hLen]), maskedDB = Data(em[(hLen + 1)...])
        let seed = xor(maskedSeed, RSAPadding.mgf1(maskedDB, length: hLen, hash: hash))
        let db = [UInt8](xor(maskedDB, RSAPadding.mgf1(seed, length: k - hLen - 1, hash: hash)))
        let expectedLabelHash = [UInt8](hash.hash(Data()))

        // All-ones masks (0xFF) for "true", zero for "false", combined without branching.
        var good = isZero(em[0])
        var labelDifference: UInt8 = 0
        for index in 0..<hLen { labelDifference |= db[index] ^ expectedLabelHash[index] }
        good &= isZero(labelDifference)
        // After the label hash: zeros, then a single 01, then the message. Find the 01's index
        // while looking at every byte; a byte other than 00 before it spoils the padding.
        var stillInZeros: UInt8 = 0xff
        var separatorIndex = 0
        var sawSeparator: UInt8 = 0
        for index in hLen..<db.count {
            let byte = db[index]
            let isOne = isZero(byte ^ 1)
            let isZeroByte = isZero(byte)
            let separatorHere = stillInZeros & isOne
            separatorIndex |= Int(truncatingIfNeeded: Int8(bitPattern: separatorHere)) & index
            sawSeparator |= separatorHere
            // A byte that is neither 00 nor the separator while still in the zeros is a flaw.
            good &= ~(stillInZeros & ~isZeroByte & ~isOne)
            stillInZeros &= isZeroByte
        }
        good &= sawSeparator
        guard good == 0xff else { return nil }
        return Data(db[(separatorIndex + 1)...])
    }

    /// 0xFF when `byte` is zero, 0x00 otherwise, without a branch.
    @inline(__always)
    private static func isZero(_ byte: UInt8) -> UInt8 {
        // In 16 bits, byte - 1 reaches the high byte (0xFFFF) only when byte is 0.
        UInt8(truncatingIfNeeded: (UInt16(byte) &- 1) >> 8)
    }

    private static func xor(_ a: Data, _ b: Data) -> Data {
        Data(zip(a, b).map { $0 ^ $1 })
    }
}
