import Foundation
import Testing
import KeychainServices

/// Damaged external representations, ciphertexts and signatures (bit flips, truncations,
/// extensions, from a fixed seed) are refused with an error, never a crash, and no error text
/// repeats the private key's bytes.
@Suite("SecKey: hostile input")
struct SecKeyHostileInputTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct Mutator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 17
        }
        mutating func mutate(_ data: Data) -> Data {
            var bytes = [UInt8](data)
            switch next() % 4 {
            case 0 where !bytes.isEmpty:
                let index = Int(next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (next() % 8))
            case 1 where !bytes.isEmpty:
                bytes.removeLast(Int(next() % UInt64(bytes.count)) + 1)
            case 2:
                bytes += (0..<Int(next() % 40)).map { _ in UInt8(truncatingIfNeeded: next()) }
            default:
                // Overwrite a byte that may be a DER length with an extreme value.
                if !bytes.isEmpty { bytes[Int(next() % UInt64(min(bytes.count, 12)))] = [0x00, 0x7f, 0x80, 0x84, 0xff][Int(next() % 5)] }
            }
            return Data(bytes)
        }
    }

    func create(_ data: Data, rsa: Bool, isPrivate: Bool) -> (SecKey?, CFError?) {
        var error: Unmanaged<CFError>?
        let attributes: [String: Any] = [kSecAttrKeyType as String: rsa ? kSecAttrKeyTypeRSA : kSecAttrKeyTypeECSECPrimeRandom,
                                         kSecAttrKeyClass as String: isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic]
        let key = SecKeyCreateWithData(data as CFData, attributes as CFDictionary, &error)
        return (key, takeError(error))
    }

    @Test("Damaged RSA and EC key data: nil with an error (or a different valid key), never a crash", arguments: [false, true])
    func damagedKeyData(_ rsa: Bool) throws {
        let key = rsa ? try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]) : try ecKey()
        let privateData = try externalRepresentation(key)
        let publicData = try externalRepresentation(publicKey(key))
        let secretHex = privateData.suffix(16).map { String(format: "%02x", $0) }.joined()
        var mutator = Mutator(state: rsa ? 7 : 11)
        for round in 0..<400 {
            let isPrivate = round % 2 == 0
            let damaged = mutator.mutate(isPrivate ? privateData : publicData)
            let (made, error) = create(damaged, rsa: rsa, isPrivate: isPrivate)
            if made == nil {
                let text = "\(String(describing: error))"
                #expect(error != nil && !text.lowercased().contains(secretHex), "\(text)")
            }
        }
    }

    @Test("Damaged ciphertexts and signatures: an error or false, never a crash", arguments: [false, true])
    func damagedCiphertexts(_ rsa: Bool) throws {
        let key = rsa ? try makeKey([kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]) : try ecKey()
        let pub = try publicKey(key)
        let encryptions: [SecKeyAlgorithm] = rsa
            ? [.rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA256, .rsaEncryptionOAEPSHA256AESGCM]
            : [.eciesEncryptionStandardX963SHA256AESGCM, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM]
        let signatures: [SecKeyAlgorithm] = rsa
            ? [.rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw, .rsaSignatureMessagePKCS1v15SHA256, .rsaSignatureMessagePSSSHA256, .rsaSignatureDigestPSSSHA256]
            : [.ecdsaSignatureMessageX962SHA256, .ecdsaSignatureDigestX962, .ecdsaSignatureRFC4754]
        let message = Data("hostile".utf8)
        var mutator = Mutator(state: rsa ? 3 : 5)
        for algorithm in encryptions {
            let plaintext = algorithm == .rsaEncryptionRaw ? Data(count: 256 - 8) + message : message
            guard let ciphertext = encrypt(pub, algorithm, plaintext).0 else { Issue.record("\(algorithm.rawValue) did not encrypt"); continue }
            for _ in 0..<60 {
                let (opened, error) = decrypt(key, algorithm, mutator.mutate(ciphertext))
                #expect(opened != nil || error != nil)
            }
        }
        for algorithm in signatures {
            let input = algorithm == .rsaSignatureRaw ? Data(count: 256 - 8) + message
                : (algorithm == .rsaSignatureDigestPKCS1v15Raw || algorithm == .ecdsaSignatureDigestX962) ? Data(repeating: 1, count: 32)
                : algorithm == .rsaSignatureDigestPSSSHA256 ? Data(repeating: 2, count: 32) : message
            guard let signature = sign(key, algorithm, input).0 else { Issue.record("\(algorithm.rawValue) did not sign"); continue }
            for _ in 0..<60 {
                let damaged = mutator.mutate(signature)
                let (valid, error) = verify(pub, algorithm, input, damaged)
                #expect(valid ? damaged == signature || algorithm == .rsaSignatureRaw : error != nil, "\(algorithm.rawValue)")
            }
        }
    }
}
