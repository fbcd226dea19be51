#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation
import KeychainCrypto

/// The RSA algorithms for keys below 1024 bits (``SmallRSAPrivateKey``), which swift-crypto
/// cannot hold: every padding is KeychainCrypto's (``RSAPadding``, ``RSAOAEP``,
/// ``RSAPKCS1Encryption``) over the key's own private and public operations, and a message is
/// hashed first and then signed as a digest, as Security's adaptors do (SecKeyAdaptors.m).
enum SmallRSAOperations {
    static func sign(_ key: SmallRSAPrivateKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        let size = key.numbers.byteCount
        let block: Data
        switch name {
        case .rsaSignatureRaw:
            block = data
        case .rsaPKCS1v15(.message(let hash)):
            return try sign(key, .rsaPKCS1v15(.digest(hash)), hash.hash(data))
        case .rsaPSS(.message(let hash)):
            return try sign(key, .rsaPSS(.digest(hash)), hash.hash(data))
        case .rsaPKCS1v15(.digest(let hash)):
            block = try KeyError.catching { () throws(PrimitiveError) in try RSAPadding.pkcs1v15(data, hash: hash, size: size) }
        case .rsaPSS(.digest(let hash?)):
            block = try KeyError.catching { () throws(PrimitiveError) in
                try RSAPadding.pssEncode(data, hash: hash, modulusBits: key.numbers.bitCount)
            }
        default:
            throw .unimplemented("this RSA signature algorithm is not available")
        }
        return try KeyError.catching { () throws(PrimitiveError) in try key.numbers.privateOperation(block) }
    }

    static func verify(_ key: SmallRSAPublicKey, _ name: AlgorithmName, _ data: Data, _ signature: Data) throws(KeyError) -> Bool {
        let size = (key.bitCount + 7) / 8
        let recovered: Data? = signature.count == size ? try? key.publicOperation(signature) : nil
        switch name {
        case .rsaSignatureRaw:
            guard data.count <= size, let recovered else { return false }
            return recovered == Data(count: size - data.count) + data
        case .rsaPKCS1v15(.message(let hash)):
            return try verify(key, .rsaPKCS1v15(.digest(hash)), hash.hash(data), signature)
        case .rsaPSS(.message(let hash)):
            return try verify(key, .rsaPSS(.digest(hash)), hash.hash(data), signature)
        case .rsaPKCS1v15(.digest(let hash)):
            let expected = try KeyError.catching { () throws(PrimitiveError) in try RSAPadding.pkcs1v15(data, hash: hash, size: size) }
            return recovered == expected
        case .rsaPSS(.digest(let hash?)):
            guard data.count == hash.byteCount else { throw .parameter("the digest is not \(hash.byteCount) bytes") }
            guard let recovered else { return false }
            return RSAPadding.pssVerify(data, encoded: recovered, hash: hash, modulusBits: key.bitCount)
        default:
            throw .unimplemented("this RSA signature algorithm is not available")
        }
    }

    static func encrypt(_ key: SmallRSAPublicKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        let size = (key.bitCount + 7) / 8
        switch name {
        case .rsaEncryptionRaw:
            return try KeyError.catching { () throws(PrimitiveError) in try key.publicOperation(data) }
        case .rsaEncryptionPKCS1:
            return try KeyError.catching { () throws(PrimitiveError) in
                try key.publicOperation(RSAPKCS1Encryption.encode(data, size: size))
            }
        case .rsaOAEP(let hash, aesGCM: false):
            return try oaepEncrypt(key, hash, data)
        case .rsaOAEP(let hash, aesGCM: true):
            return try RSAOperations.aesGCMSeal(data, keyBits: key.bitCount, publicKeyDER: key.derRepresentation) { (sessionKey) throws(KeyError) in
                try oaepEncrypt(key, hash, sessionKey)
            }
        default:
            throw .unimplemented("this RSA encryption algorithm is not available")
        }
    }

    private static func oaepEncrypt(_ key: SmallRSAPublicKey, _ hash: HashName, _ data: Data) throws(KeyError) -> Data {
        let seed = SymmetricKey(size: .init(bitCount: hash.byteCount * 8)).withUnsafeBytes { Data($0) }
        return try KeyError.catching { () throws(PrimitiveError) in
            try key.publicOperation(RSAOAEP.encode(data, seed: seed, hash: hash, modulusBytes: (key.bitCount + 7) / 8))
        }
    }

    static func decrypt(_ key: SmallRSAPrivateKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        if case .rsaOAEP(let hash, aesGCM: true) = name {
            return try RSAOperations.aesGCMOpen(data, blockSize: key.numbers.byteCount,
                                                publicKeyDER: key.publicKey.derRepresentation) { (block) throws(KeyError) in
                try decrypt(key, .rsaOAEP(hash, aesGCM: false), block)
            }
        }
        guard data.count == key.numbers.byteCount else { throw .parameter("the ciphertext is not one RSA block long") }
        if name == .rsaEncryptionRaw {
            return try KeyError.catching { () throws(PrimitiveError) in try key.numbers.privateOperation(data) }
        }
        // One answer for every failure after the private operation, whichever check failed.
        let failure = KeyError(errSecParam, "RSA decryption failed")
        guard let block = try? key.numbers.privateOperation(data) else { throw failure }
        switch name {
        case .rsaEncryptionPKCS1:
            guard let message = RSAPKCS1Encryption.decode(block) else { throw failure }
            return message
        case .rsaOAEP(let hash, aesGCM: false):
            guard let message = RSAOAEP.decode(block, hash: hash) else { throw failure }
            return message
        default:
            throw .unimplemented("this RSA encryption algorithm is not available")
        }
    }
}
#endif
