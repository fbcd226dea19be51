#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation
import KeychainCrypto

/// The SecKey operations, dispatched on the algorithm's name (Security's SecKeyAdaptors.m gives
/// every algorithm an adaptor over a key's few primitive operations; here each family has its
/// own file: ECOperations, RSAOperations; Ed25519 is swift-crypto's two calls, here; the
/// primitives swift-crypto lacks are KeychainCrypto's).
enum KeyOperations {
    static func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        let name = try checked(key.material, .sign, algorithm)
        try key.usageGuard?.authorize()
        switch (key.material, name) {
        case (.ecPrivate(let ec), .ecdsa(let der, let input)):
            return try ECOperations.sign(ec, der: der, input: input, data)
        case (.rsaPrivate(let rsa), _):
            return try RSAOperations.sign(rsa, name, data)
        case (.rsaSmallPrivate(let rsa), _):
            return try SmallRSAOperations.sign(rsa, name, data)
        case (.ed25519Private(let ed), .eddsa):
            do {
                return try ed.signature(for: data)
            } catch {
                throw KeyError(errSecInternalError, "the Ed25519 signature could not be made")
            }
        default:
            throw .unsupported(algorithm)
        }
    }

    static func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) throws(KeyError) {
        let name = try checked(key.material, .verify, algorithm)
        let valid: Bool
        switch (key.material.publicMaterial, name) {
        case (.ecPublic(let ec), .ecdsa(let der, let input)):
            valid = try ECOperations.verify(ec, der: der, input: input, data, signature)
        case (.rsaPublic(let rsa), _):
            valid = try RSAOperations.verify(rsa, name, data, signature)
        case (.rsaSmallPublic(let rsa), _):
            valid = try SmallRSAOperations.verify(rsa, name, data, signature)
        case (.ed25519Public(let ed), .eddsa):
            valid = ed.isValidSignature(signature, for: data)
        default:
            throw .unsupported(algorithm)
        }
        // Security's answer to a signature that does not verify (SecECKey.m, SecRSAKey.m).
        if !valid { throw KeyError(errSecVerifyFailed, "the signature does not verify") }
    }

    static func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        let name = try checked(key.material, .encrypt, algorithm)
        switch (key.material, name) {
        case (.ecPublic(let ec), .ecies(_, let hash, let variableIV)):
            return try ECOperations.eciesEncrypt(data, to: ec, hash: hash, variableIV: variableIV)
        case (.rsaPublic(let rsa), _):
            return try RSAOperations.encrypt(rsa, name, data)
        case (.rsaSmallPublic(let rsa), _):
            return try SmallRSAOperations.encrypt(rsa, name, data)
        default:
            throw .unsupported(algorithm)
        }
    }

    static func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        let name = try checked(key.material, .decrypt, algorithm)
        try key.usageGuard?.authorize()
        switch (key.material, name) {
        case (.ecPrivate(let ec), .ecies(_, let hash, let variableIV)):
            return try ECOperations.eciesDecrypt(data, with: ec, hash: hash, variableIV: variableIV)
        case (.rsaPrivate(let rsa), _):
            return try RSAOperations.decrypt(rsa, name, data)
        case (.rsaSmallPrivate(let rsa), _):
            return try SmallRSAOperations.decrypt(rsa, name, data)
        default:
            throw .unsupported(algorithm)
        }
    }

    static func keyExchange(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: NSDictionary) throws(KeyError) -> Data {
        let name = try checked(key.material, .keyExchange, algorithm)
        guard case .ecPrivate(let ours) = key.material, case .ecdh(_, let kdf) = name else { throw .unsupported(algorithm) }
        guard case .ecPublic(let theirs) = publicKey.material.publicMaterial, theirs.curve == ours.curve else {
            throw .parameter("the other party's key is not a public key on the same curve")
        }
        try key.usageGuard?.authorize()
        let secret = try ECOperations.sharedSecret(ours, theirs)
        guard let kdf else { return secret }
        // Security's KDF adaptors require the requested size; the shared info is optional.
        guard let size = (parameter(.requestedSize, in: parameters) as? NSNumber)?.intValue, size > 0 else {
            throw .parameter("SecKeyKeyExchangeParameter.requestedSize is missing or not a positive number")
        }
        let sharedInfo = parameter(.sharedInfo, in: parameters).flatMap(ValueConversion.data) ?? Data()
        return X963KDF.derive(secret: secret, hash: kdf, sharedInfo: sharedInfo, byteCount: size)
    }

    /// A key-exchange parameter, under its string or under the struct itself: Apple code also
    /// writes `[SecKeyKeyExchangeParameter.requestedSize: 32] as CFDictionary`, which Apple's
    /// bridging turns into the string key, and Linux's Foundation keeps as a boxed struct.
    private static func parameter(_ name: SecKeyKeyExchangeParameter, in parameters: NSDictionary) -> Any? {
        if let value = parameters[name.name as NSString] { return value }
        for (key, value) in parameters.entries where (key as? SecKeyKeyExchangeParameter) == name { return value }
        return nil
    }

    static func isSupported(_ material: KeyMaterial, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
        guard let name = AlgorithmName(algorithm), name.operations.contains(operation), name.fits(material.family),
              fitsSize(name, operation, material) else { return false }
        // Signing, decryption and key exchange need the private key, encryption the public key
        // (Apple's si-44-seckey-ies regression test checks both ways); a private key verifies
        // with its public half.
        switch operation {
        case .sign, .decrypt, .keyExchange: return material.isPrivate
        case .encrypt: return !material.isPrivate
        case .verify: return true
        }
    }

    /// Whether the key is large enough for the algorithm, as Security's PSS adaptor decides
    /// before anything else, SecKeyIsAlgorithmSupported included (`SecKeyRSACopyEMSASignature`
    /// in SecKeyAdaptors.m): a PSS signature needs a modulus of at least 16·hLen + 9 bits;
    /// verifying has no such check and simply fails. This matters most for small keys: a
    /// 512-bit key signs PSS with SHA-1 and SHA-224 only. (Security's OAEP adaptors likewise
    /// call a block below 2·hLen + 2 bytes unsupported; here such an OAEP call is errSecParam
    /// when made, and SecKeyIsAlgorithmSupported still says yes.)
    private static func fitsSize(_ name: AlgorithmName, _ operation: SecKeyOperationType, _ material: KeyMaterial) -> Bool {
        switch name {
        case .rsaPSS(.message(let hash)) where operation == .sign, .rsaPSS(.digest(let hash?)) where operation == .sign:
            return material.sizeInBits >= 16 * hash.byteCount + 9
        default:
            return true
        }
    }

    /// The algorithm taken apart, or Security's refusal: errSecParam when it does not fit the key
    /// or the operation. (Every algorithm that fits is computed: what swift-crypto lacks, SHA-224
    /// and OAEP with SHA-224/384/512, is KeychainCrypto's SHA224 and RSAOAEP.)
    private static func checked(_ material: KeyMaterial, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) throws(KeyError) -> AlgorithmName {
        guard let name = AlgorithmName(algorithm), name.operations.contains(operation), name.fits(material.family),
              fitsSize(name, operation, material) else {
            throw .unsupported(algorithm)
        }
        if !material.isPrivate && [.sign, .decrypt, .keyExchange].contains(operation) { throw .unsupported(algorithm) }
        if material.isPrivate && operation == .encrypt { throw .unsupported(algorithm) }
        return name
    }
}
#endif
