/// A block cipher with 64-bit blocks (DES, triple DES, RC2): the ciphers of the password-based
/// encryption older PKCS#12 files use (RFC 7292, appendix C), which swift-crypto does not offer.
///
/// They are here only to read such files (Apple's `SecPKCS12Import` reads them, and nothing
/// writes them here). Neither is constant-time: table lookups depend on the key and data. That
/// is acceptable for decrypting a file once under a passphrase the caller already holds, and is
/// why nothing else may use them.
package protocol LegacyBlockCipher: Sendable {
    /// One block, its first byte in the most significant position.
    func encryptBlock(_ block: UInt64) -> UInt64
    func decryptBlock(_ block: UInt64) -> UInt64
}

extension LegacyBlockCipher {
    /// Decrypts CBC ciphertext and removes its PKCS#7 padding (RFC 8018 §6.1.1 and RFC 7292
    /// appendix C pad this way).
    ///
    /// - Throws: `PrimitiveError` (`.parameter`) when the IV is not 8 bytes, the ciphertext is
    ///   empty or not whole blocks, or the padding does not check (a wrong key, most likely).
    package func decryptCBC(_ ciphertext: [UInt8], iv: [UInt8]) throws(PrimitiveError) -> [UInt8] {
        guard iv.count == 8 else { throw .parameter("the IV is not one block") }
        guard !ciphertext.isEmpty, ciphertext.count % 8 == 0 else { throw .parameter("the ciphertext is not whole blocks") }
        var previous = BlockBytes.word(iv, at: 0)
        var plaintext: [UInt8] = []
        plaintext.reserveCapacity(ciphertext.count)
        for start in stride(from: 0, to: ciphertext.count, by: 8) {
            let block = BlockBytes.word(ciphertext, at: start)
            BlockBytes.append(decryptBlock(block) ^ previous, to: &plaintext)
            previous = block
        }
        let padding = Int(plaintext[plaintext.count - 1])
        guard (1...8).contains(padding),
              plaintext.suffix(padding).allSatisfy({ Int($0) == padding }) else { throw .parameter("the padding does not check") }
        return Array(plaintext.dropLast(padding))
    }

    /// Encrypts whole blocks in ECB, for the published single-block vectors.
    package func encryptECB(_ plaintext: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for start in stride(from: 0, to: plaintext.count - plaintext.count % 8, by: 8) {
            BlockBytes.append(encryptBlock(BlockBytes.word(plaintext, at: start)), to: &output)
        }
        return output
    }

    /// Decrypts whole blocks in ECB.
    package func decryptECB(_ ciphertext: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        for start in stride(from: 0, to: ciphertext.count - ciphertext.count % 8, by: 8) {
            BlockBytes.append(decryptBlock(BlockBytes.word(ciphertext, at: start)), to: &output)
        }
        return output
    }
}

/// Big-endian conversion between eight bytes and a block.
enum BlockBytes {
    static func word(_ bytes: [UInt8], at start: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { ($0 << 8) | UInt64(bytes[start + $1]) }
    }

    static func append(_ word: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
}
