import Crypto
import Foundation
import KeychainServices

/// SecKey against swift-crypto in the same run (BENCHMARKS.md, "Keys"):
/// - a P-256 signature through a permanent SecKey (look the key up by tag with kSecReturnRef, then
///   SecKeyCreateSignature) against one keychain lookup of the same key's bytes kept as a generic
///   password plus swift-crypto's own sign (the CryptoKit-in-the-keychain pattern);
/// - SecKeyCreateRandomKey of a permanent P-256 key (two items) against one password add.
/// Rounds alternate the two sides so that both see the machine in the same state.
enum KeyBench {
    struct Result: Codable {
        var seckey_sign_with_lookup: LatencySummary
        var swiftcrypto_sign_with_lookup: LatencySummary
        var sign_ratio: Double
        var seckey_sign_held_key: LatencySummary
        var swiftcrypto_sign_only: LatencySummary
        var create_permanent_p256: LatencySummary
        var password_add: LatencySummary
        /// One SecItemAdd of an existing key by kSecValueRef (one of the two adds a permanent key makes).
        var key_item_add: LatencySummary
        /// SecKeyCreateRandomKey of a P-256 key that is not stored.
        var create_transient_p256: LatencySummary
        var create_ratio: Double
    }

    static func check(_ status: OSStatus, _ call: String) throws {
        guard status == errSecSuccess else { throw BenchFailure("\(call) failed: \(status)") }
    }

    static func run(directory: String, operations: Int, rounds: Int) throws -> Result {
        let system = try SecItemSystem(path: directory + "/keys.keychain-db", deviceKeyPath: directory + "/device-key")
        _ = system
        let tag = Data("bench.signing".utf8)
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                                               kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag] as CFDictionary, &error),
              let external = SecKeyCopyExternalRepresentation(key, nil) as Data? else { throw BenchFailure("no key") }
        try Self.check(SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench.key",
                              kSecValueData as String: external] as CFDictionary, nil), "SecItemAdd")
        let message = Data(repeating: 0x5a, count: 64)
        let keyQuery: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                                       kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true]
        let passwordQuery: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench.key",
                                            kSecReturnData as String: true]
        let cryptoKey = try P256.Signing.PrivateKey(x963Representation: external)

        var secKeySamples: [UInt64] = [], swiftCryptoSamples: [UInt64] = [], heldSamples: [UInt64] = [], rawSamples: [UInt64] = []
        var createSamples: [UInt64] = [], addSamples: [UInt64] = [], keyAddSamples: [UInt64] = [], transientSamples: [UInt64] = []
        let perRound = max(1, operations / rounds)
        for round in 0..<rounds {
            for _ in 0..<perRound {
                var start = nowNanoseconds()
                var result: CFTypeRef?
                try Self.check(SecItemCopyMatching(keyQuery as CFDictionary, &result), "SecItemCopyMatching")
                guard let stored = result as? SecKey, SecKeyCreateSignature(stored, .ecdsaSignatureMessageX962SHA256, message as CFData, nil) != nil
                else { throw BenchFailure("SecKey sign failed") }
                secKeySamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                var data: CFTypeRef?
                try Self.check(SecItemCopyMatching(passwordQuery as CFDictionary, &data), "SecItemCopyMatching")
                guard let bytes = data as? Data else { throw BenchFailure("no key bytes") }
                _ = try P256.Signing.PrivateKey(x963Representation: bytes).signature(for: message)
                swiftCryptoSamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                guard SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message as CFData, nil) != nil else { throw BenchFailure("sign") }
                heldSamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                _ = try cryptoKey.signature(for: message)
                rawSamples.append(nowNanoseconds() - start)
            }
            for i in 0..<max(1, perRound / 4) {
                var start = nowNanoseconds()
                guard SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                                             kSecAttrIsPermanent as String: true,
                                             kSecAttrApplicationTag as String: Data("bench.\(round).\(i)".utf8)] as CFDictionary, nil) != nil
                else { throw BenchFailure("SecKeyCreateRandomKey failed") }
                createSamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                try Self.check(SecItemAdd([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench.add",
                                      kSecAttrAccount as String: "\(round).\(i)",
                                      kSecValueData as String: Data(repeating: 1, count: 32)] as CFDictionary, nil), "SecItemAdd")
                addSamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                try Self.check(SecItemAdd([kSecValueRef as String: key, kSecAttrApplicationTag as String: Data("item.\(round).\(i)".utf8)] as CFDictionary, nil), "SecItemAdd")
                keyAddSamples.append(nowNanoseconds() - start)

                start = nowNanoseconds()
                guard SecKeyCreateRandomKey([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256] as CFDictionary, nil) != nil
                else { throw BenchFailure("SecKeyCreateRandomKey failed") }
                transientSamples.append(nowNanoseconds() - start)
            }
        }
        let secKey = LatencySummary(nanoseconds: secKeySamples), swiftCrypto = LatencySummary(nanoseconds: swiftCryptoSamples)
        let create = LatencySummary(nanoseconds: createSamples), add = LatencySummary(nanoseconds: addSamples)
        return Result(seckey_sign_with_lookup: secKey, swiftcrypto_sign_with_lookup: swiftCrypto,
                      sign_ratio: ((secKey.median_us / swiftCrypto.median_us) * 100).rounded() / 100,
                      seckey_sign_held_key: LatencySummary(nanoseconds: heldSamples),
                      swiftcrypto_sign_only: LatencySummary(nanoseconds: rawSamples),
                      create_permanent_p256: create, password_add: add,
                      key_item_add: LatencySummary(nanoseconds: keyAddSamples), create_transient_p256: LatencySummary(nanoseconds: transientSamples),
                      create_ratio: ((create.median_us / add.median_us) * 100).rounded() / 100)
    }
}
