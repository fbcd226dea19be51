#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation

/// The SecKey operations, dispatched on the algorithm's name (Security's `SecKeyAdaptors.m`
/// gives every algorithm an adaptor over the key's few primitive operations; here each family
/// has its own file).
enum KeyOperations {
    static func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        guard isSupported(key.material, .sign, algorithm) else { throw failure(key.material, .sign, algorithm) }
        try key.usageGuard?.authorize()
        throw .unimplemented("signing is not implemented yet")
    }

    static func verify(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data, _ signature: Data) throws(KeyError) {
        guard isSupported(key.material, .verify, algorithm) else { throw failure(key.material, .verify, algorithm) }
        throw .unimplemented("verification is not implemented yet")
    }

    static func encrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        guard isSupported(key.material, .encrypt, algorithm) else { throw failure(key.material, .encrypt, algorithm) }
        throw .unimplemented("encryption is not implemented yet")
    }

    static func decrypt(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ data: Data) throws(KeyError) -> Data {
        guard isSupported(key.material, .decrypt, algorithm) else { throw failure(key.material, .decrypt, algorithm) }
        try key.usageGuard?.authorize()
        throw .unimplemented("decryption is not implemented yet")
    }

    static func keyExchange(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: NSDictionary) throws(KeyError) -> Data {
        guard isSupported(key.material, .keyExchange, algorithm) else { throw failure(key.material, .keyExchange, algorithm) }
        try key.usageGuard?.authorize()
        throw .unimplemented("key exchange is not implemented yet")
    }

    static func isSupported(_ material: KeyMaterial, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
        false
    }

    /// Why an algorithm is refused: one this platform cannot compute is errSecUnimplemented;
    /// one that does not fit the key (or the operation) is errSecParam, as on Apple.
    static func failure(_ material: KeyMaterial, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> KeyError {
        .unsupported(algorithm)
    }
}
#endif
