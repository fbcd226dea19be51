#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation
import KeychainCrypto

/// RSA signatures and encryption with swift-crypto's `_RSA`; raw RSA and signatures over a
/// caller's digest through KeychainCrypto's `RSARaw` and `RSAPadding`; what `_RSA` lacks is
/// built on raw RSA: signatures of a message hashed with SHA-224 (hashed by KeychainCrypto's
/// `SHA224`, then signed as a digest) and OAEP with SHA-224/384/512 (`RSAOAEP`).
enum RSAOperations {
    static func sign(_ key: _RSA.Signing.PrivateKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        let size = (key.keySizeInBits + 7) / 8
        switch name {
        case .rsaSignatureRaw:
            return try KeyError.catching { () throws(PrimitiveError) in try RSARaw.privateOperation(key, data) }
        case .rsaPKCS1v15(.digest(let hash)):
            return try KeyError.catching { () throws(PrimitiveError) in
                try RSARaw.privateOperation(key, RSAPadding.pkcs1v15(data, hash: hash, size: size))
            }
        case .rsaPSS(.digest(let hash?)):
            return try KeyError.catching { () throws(PrimitiveError) in
                try RSARaw.privateOperation(key, RSAPadding.pssEncode(data, hash: hash, modulusBits: key.keySizeInBits))
            }
        case .rsaPKCS1v15(.message(.sha224)):
            return try sign(key, .rsaPKCS1v15(.digest(.sha224)), SHA224.hash(data: data))
        case .rsaPSS(.message(.sha224)):
            return try sign(key, .rsaPSS(.digest(.sha224)), SHA224.hash(data: data))
        default:
            break
        }
        let (hash, padding) = try messageScheme(name)
        do {
            let signature: _RSA.Signing.RSASignature
            switch hash {
            case .sha1: signature = try key.signature(for: Insecure.SHA1.hash(data: data), padding: padding)
            case .sha256: signature = try key.signature(for: SHA256.hash(data: data), padding: padding)
            case .sha384: signature = try key.signature(for: SHA384.hash(data: data), padding: padding)
            case .sha512: signature = try key.signature(for: SHA512.hash(data: data), padding: padding)
            case .sha224: throw KeyError.unimplemented("SHA-224 message signatures take the digest path")
            }
            return signature.rawRepresentation
        } catch let error as KeyError {
            throw error
        } catch {
            throw KeyError(errSecParam, "RSA signing failed (the key may be too small for the padding)")
        }
    }

    static func verify(_ key: _RSA.Signing.PublicKey, _ name: AlgorithmName, _ data: Data, _ signature: Data) throws(KeyError) -> Bool {
        let size = (key.keySizeInBits + 7) / 8
        /// The public operation on the signature; nil (invalid) when it is not a value below the modulus.
        func recovered() -> Data? {
            guard signature.count == size else { return nil }
            return try? RSARaw.publicOperation(key, signature)
        }
        switch name {
        case .rsaSignatureRaw:
            guard data.count <= size, let value = recovered() else { return false }
            return value == Data(count: size - data.count) + data
        case .rsaPKCS1v15(.digest(let hash)):
            let expected = try KeyError.catching { () throws(PrimitiveError) in try RSAPadding.pkcs1v15(data, hash: hash, size: size) }
            return recovered() == expected
        case .rsaPSS(.digest(let hash?)):
            guard data.count == hash.byteCount else { throw .parameter("the digest is not \(hash.byteCount) bytes") }
            guard let value = recovered() else { return false }
            return RSAPadding.pssVerify(data, encoded: value, hash: hash, modulusBits: key.keySizeInBits)
        case .rsaPKCS1v15(.message(.sha224)):
            return try verify(key, .rsaPKCS1v15(.digest(.sha224)), SHA224.hash(data: data), signature)
        case .rsaPSS(.message(.sha224)):
            return try verify(key, .rsaPSS(.digest(.sha224)), SHA224.hash(data: data), signature)
        default:
            break
        }
        let (hash, padding) = try messageScheme(name)
        let s = _RSA.Signing.RSASignature(rawRepresentation: signature)
        switch hash {
        case .sha1: return key.isValidSignature(s, for: Insecure.SHA1.hash(data: data), padding: padding)
        case .sha256: return key.isValidSignature(s, for: SHA256.hash(data: data), padding: padding)
        case .sha384: return key.isValidSignature(s, for: SHA384.hash(data: data), padding: padding)
        case .sha512: return key.isValidSignature(s, for: SHA512.hash(data: data), padding: padding)
        case .sha224: throw .unimplemented("SHA-224 message signatures take the digest path")
        }
    }

    /// The message signature schemes swift-crypto computes. PSS's salt is as long as the digest,
    /// which is what Apple's PSS algorithm names say.
    private static func messageScheme(_ name: AlgorithmName) throws(KeyError) -> (HashName, _RSA.Signing.Padding) {
        switch name {
        case .rsaPKCS1v15(.message(let hash)): return (hash, .insecurePKCS1v1_5)
        case .rsaPSS(.message(let hash)): return (hash, .PSS)
        default: throw .unimplemented("this RSA signature algorithm is not available")
        }
    }

    static func encrypt(_ key: _RSA.Signing.PublicKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        if name == .rsaEncryptionRaw { return try KeyError.catching { () throws(PrimitiveError) in try RSARaw.publicOperation(key, data) } }
        let publicKey = try encryptionKey(key)
        /// One OAEP block: swift-crypto's for SHA-1 and SHA-256, ours for the other hashes.
        func oaep(_ hash: HashName, _ plaintext: Data) throws(KeyError) -> Data {
            if let padding = swiftCryptoOAEP(hash) { return try pad(publicKey, plaintext, padding) }
            return try KeyError.catching { () throws(PrimitiveError) in try RSAOAEP.encrypt(key, plaintext, hash: hash) }
        }
        switch name {
        case .rsaOAEP(let hash, aesGCM: false):
            return try oaep(hash, data)
        case .rsaOAEP(let hash, aesGCM: true):
            return try aesGCMSeal(data, keyBits: key.keySizeInBits, publicKeyDER: key.pkcs1DERRepresentation) { (sessionKey) throws(KeyError) in
                try oaep(hash, sessionKey)
            }
        default:
            return try pad(publicKey, data, try padding(name))
        }
    }

    static func decrypt(_ key: _RSA.Signing.PrivateKey, _ name: AlgorithmName, _ data: Data) throws(KeyError) -> Data {
        if name == .rsaEncryptionRaw {
            guard data.count == (key.keySizeInBits + 7) / 8 else { throw .parameter("the ciphertext is not one RSA block long") }
            return try KeyError.catching { () throws(PrimitiveError) in try RSARaw.privateOperation(key, data) }
        }
        let privateKey: _RSA.Encryption.PrivateKey
        do { privateKey = try _RSA.Encryption.PrivateKey(unsafeDERRepresentation: key.derRepresentation) } catch {
            throw KeyError(errSecDecode, "the RSA key cannot be used for decryption")
        }
        let blockSize = (key.keySizeInBits + 7) / 8
        /// One OAEP block: swift-crypto's for SHA-1 and SHA-256, ours for the other hashes.
        func oaep(_ hash: HashName, _ block: Data) throws(KeyError) -> Data {
            if let padding = swiftCryptoOAEP(hash) { return try unpad(privateKey, block, padding) }
            return try KeyError.catching { () throws(PrimitiveError) in try RSAOAEP.decrypt(key, block, hash: hash) }
        }
        switch name {
        case .rsaOAEP(let hash, aesGCM: false):
            guard data.count == blockSize else { throw .parameter("the ciphertext is not one RSA block long") }
            return try oaep(hash, data)
        case .rsaOAEP(let hash, aesGCM: true):
            return try aesGCMOpen(data, blockSize: blockSize, publicKeyDER: key.publicKey.pkcs1DERRepresentation) { (block) throws(KeyError) in
                try oaep(hash, block)
            }
        default:
            guard data.count == blockSize else { throw .parameter("the ciphertext is not one RSA block long") }
            return try unpad(privateKey, data, try padding(name))
        }
    }

    /// Apple's RSA-AES-GCM (SecKeyRSAAESGCMCopyEncryptedData in SecKeyAdaptors.m): a fresh AES
    /// key (16 bytes below 4096-bit keys, 32 from 4096), wrapped by `wrap` (OAEP), then AES-GCM
    /// with 16 zero IV bytes and the public key's PKCS#1 bytes as associated data.
    static func aesGCMSeal(_ data: Data, keyBits: Int, publicKeyDER: Data,
                           wrap: (Data) throws(KeyError) -> Data) throws(KeyError) -> Data {
        let sessionKey = SymmetricKey(size: keyBits >= 4096 ? .bits256 : .bits128)
        let wrapped = try wrap(sessionKey.withUnsafeBytes { Data($0) })
        do {
            let sealed = try AES.GCM.seal(data, using: sessionKey, nonce: AES.GCM.Nonce(data: Data(count: ECIES.ivLength)),
                                          authenticating: publicKeyDER)
            return wrapped + sealed.ciphertext + sealed.tag
        } catch {
            throw KeyError(errSecParam, "RSA-AES-GCM encryption failed")
        }
    }

    /// The reverse of ``aesGCMSeal(_:keyBits:publicKeyDER:wrap:)``: `unwrap` opens the first block.
    static func aesGCMOpen(_ data: Data, blockSize: Int, publicKeyDER: Data,
                           unwrap: (Data) throws(KeyError) -> Data) throws(KeyError) -> Data {
        guard data.count >= blockSize + ECIES.tagLength else { throw .parameter("the RSA-AES-GCM input is too short") }
        let bytes = Data(data)
        let sessionKey = try unwrap(Data(bytes.prefix(blockSize)))
        let body = bytes.dropFirst(blockSize)
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: Data(count: ECIES.ivLength)),
                                            ciphertext: body.dropLast(ECIES.tagLength), tag: body.suffix(ECIES.tagLength))
            return try AES.GCM.open(box, using: SymmetricKey(data: sessionKey), authenticating: publicKeyDER)
        } catch {
            throw KeyError(errSecParam, "RSA-AES-GCM decryption failed")
        }
    }

    private static func padding(_ name: AlgorithmName) throws(KeyError) -> _RSA.Encryption.Padding {
        switch name {
        case .rsaEncryptionPKCS1: return ._WEAK_AND_INSECURE_PKCS_V1_5
        default: throw .unimplemented("this RSA encryption algorithm is not available")
        }
    }

    /// swift-crypto's OAEP padding for the hash, when it has one (SHA-1 and SHA-256 only).
    private static func swiftCryptoOAEP(_ hash: HashName) -> _RSA.Encryption.Padding? {
        switch hash {
        case .sha1: return .PKCS1_OAEP
        case .sha256: return .PKCS1_OAEP_SHA256
        default: return nil
        }
    }

    private static func encryptionKey(_ key: _RSA.Signing.PublicKey) throws(KeyError) -> _RSA.Encryption.PublicKey {
        do { return try _RSA.Encryption.PublicKey(unsafeDERRepresentation: key.derRepresentation) } catch {
            throw KeyError(errSecDecode, "the RSA key cannot be used for encryption")
        }
    }

    private static func pad(_ key: _RSA.Encryption.PublicKey, _ data: Data, _ padding: _RSA.Encryption.Padding) throws(KeyError) -> Data {
        guard data.count <= key.maximumEncryptSize(with: padding) else {
            throw .parameter("the plaintext is longer than this key and padding can encrypt")
        }
        do { return try key.encrypt(data, padding: padding) } catch {
            throw KeyError(errSecParam, "RSA encryption failed")
        }
    }

    private static func unpad(_ key: _RSA.Encryption.PrivateKey, _ data: Data, _ padding: _RSA.Encryption.Padding) throws(KeyError) -> Data {
        do { return try key.decrypt(data, padding: padding) } catch {
            throw KeyError(errSecParam, "RSA decryption failed")
        }
    }
}
#endif
