import Crypto
package import Foundation

/// The signature paddings of PKCS #1 (RFC 8017 §9) over a digest the caller computed, for Apple's
/// "digest" RSA algorithms, which swift-crypto cannot sign (it signs only digests of its own types).
package enum RSAPadding {
    /// The DER DigestInfo prefix of each hash (RFC 8017 §9.2, note 1).
    package static func digestInfoPrefix(_ hash: HashName) -> [UInt8] {
        let oidTail: UInt8
        switch hash {
        case .sha1: return [0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14]
        case .sha256: oidTail = 0x01
        case .sha384: oidTail = 0x02
        case .sha512: oidTail = 0x03
        case .sha224: oidTail = 0x04
        }
        let length = UInt8(hash.byteCount)
        return [0x30, 0x11 + length, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, oidTail, 0x05, 0x00, 0x04, length]
    }

    /// EMSA-PKCS1-v1_5 (§9.2) of `digest` for a modulus of `size` bytes: `00 01 FF… 00 ‖ T`, T
    /// being the DigestInfo, or the digest alone when no hash is named (Apple's
    /// `…DigestPKCS1v15Raw`).
    package static func pkcs1v15(_ digest: Data, hash: HashName?, size: Int) throws(PrimitiveError) -> Data {
        var t = Data()
        if let hash {
            guard digest.count == hash.byteCount else { throw .parameter("the digest is not \(hash.byteCount) bytes") }
            t.append(contentsOf: digestInfoPrefix(hash))
        }
        t.append(digest)
        guard size >= t.count + 11 else { throw .parameter("the digest is too long for this key") }
        return Data([0, 1]) + Data(repeating: 0xff, count: size - t.count - 3) + Data([0]) + t
    }

    /// MGF1 (§B.2.1) with `hash`.
    package static func mgf1(_ seed: Data, length: Int, hash: HashName) -> Data {
        var output = Data()
        var counter: UInt32 = 0
        while output.count < length {
            var block = seed
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            output.append(hash.hash(block))
            counter += 1
        }
        return output.prefix(length)
    }

    /// EMSA-PSS-ENCODE (§9.1.1) of `digest` with a random salt as long as the digest (Apple's PSS
    /// names say so), for a modulus of `modulusBits`; the result is left-padded to the modulus size.
    package static func pssEncode(_ digest: Data, hash: HashName, modulusBits: Int) throws(PrimitiveError) -> Data {
        let hLen = hash.byteCount, sLen = hash.byteCount
        guard digest.count == hLen else { throw .parameter("the digest is not \(hLen) bytes") }
        let emBits = modulusBits - 1, emLen = (emBits + 7) / 8
        guard emLen >= hLen + sLen + 2 else { throw .parameter("the key is too small for PSS with this hash") }
        let salt = SymmetricKey(size: .init(bitCount: sLen * 8)).withUnsafeBytes { Data($0) }
        let h = hash.hash(Data(count: 8) + digest + salt)
        var db = Data(count: emLen - sLen - hLen - 2) + Data([1]) + salt
        let mask = mgf1(h, length: emLen - hLen - 1, hash: hash)
        for index in db.indices { db[index] ^= mask[mask.startIndex + index - db.startIndex] }
        db[db.startIndex] &= UInt8(0xff) >> UInt8(8 * emLen - emBits)
        let em = db + h + Data([0xbc])
        let size = (modulusBits + 7) / 8
        return Data(count: size - em.count) + em
    }

    /// EMSA-PSS-VERIFY (§9.1.2) of `encoded` (the public operation's output, modulus-sized).
    package static func pssVerify(_ digest: Data, encoded: Data, hash: HashName, modulusBits: Int) -> Bool {
        let hLen = hash.byteCount, sLen = hash.byteCount
        let emBits = modulusBits - 1, emLen = (emBits + 7) / 8
        guard digest.count == hLen, emLen >= hLen + sLen + 2, encoded.count >= emLen else { return false }
        let leading = encoded.prefix(encoded.count - emLen)
        guard leading.allSatisfy({ $0 == 0 }) else { return false }
        let em = Data(encoded.suffix(emLen))
        guard em.last == 0xbc else { return false }
        var db = Data(em.prefix(emLen - hLen - 1))
        let h = Data(em.dropFirst(emLen - hLen - 1).prefix(hLen))
        let topMask = UInt8(0xff) >> UInt8(8 * emLen - emBits)
        guard db[db.startIndex] & ~topMask == 0 else { return false }
        let mask = mgf1(h, length: db.count, hash: hash)
        for index in db.indices { db[index] ^= mask[mask.startIndex + index - db.startIndex] }
        db[db.startIndex] &= topMask
        let zeros = emLen - hLen - sLen - 2
        guard db.prefix(zeros).allSatisfy({ $0 == 0 }), db[db.startIndex + zeros] == 1 else { return false }
        let salt = db.suffix(sLen)
        return hash.hash(Data(count: 8) + digest + salt) == h
    }
}
