#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation
import KeychainCrypto

/// `SecKeyCreateRandomKey` and `SecKeyCreateWithData`, following SecKey.m, SecECKey.m and
/// SecRSAKey.m.
enum KeyGeneration {
    /// Key types Security knows and this platform has no implementation of (X25519, Ed448,
    /// X448, Kyber, ML-KEM, ML-DSA, and the Secure Enclave's attestation keys).
    static let knownUnavailableTypes: Set<Int> = [106, 107, 108, 109, 110, 111, 2147483678, 2147483679, 2147483680]

    static func createRandomKey(_ parameters: NSDictionary) throws(KeyError) -> SecKey {
        let top = entries(parameters)
        let type = try keyType(top["type"])
        if (top["tkid"] as? String) == "com.apple.setoken" {
            // The Secure Enclave makes P-256 keys only; there is none here (docs/keys-and-certificates.md).
            guard type == .ec, integer(top["bsiz"]) == 256 else {
                throw .parameter("the Secure Enclave makes only 256-bit EC keys")
            }
            throw .unimplemented("there is no Secure Enclave on this platform")
        }
        let material = try generate(type: type, size: top["bsiz"])
        let key = SecKey(material: material)
        // Each half's parameters: its sub-dictionary, then the top-level entries it lacks, without
        // the generation keys (SecKeyCreateRandomKey in SecKey.m).
        var additions: [NSDictionary] = []
        for (half, isPrivate) in [("private", true), ("public", false)] {
            var effective = top
            if let sub = top[half] as? NSDictionary { for (name, value) in entries(sub) { effective[name] = value } }
            for name in ["type", "bsiz", "private", "public"] { effective[name] = nil }
            guard let permanent = effective["perm"], ValueConversion.boolean(permanent) == true
                    || (permanent as? NSNumber)?.intValue == 1 else { continue }
            additions.append(addition(isPrivate ? key : SecKey(material: material.publicMaterial), with: effective))
        }
        if !additions.isEmpty {
            // Security stores each half with SecItemAdd and kSecValueRef; here both go in one
            // transaction (SecItemImplementation.addAll). A failure (a duplicate, a refused access
            // control) fails the whole call and stores nothing.
            let status = SecItemImplementation.addAll(additions)
            guard status == errSecSuccess else { throw KeyError(status, "the key could not be stored in the keychain") }
        }
        return key
    }

    /// The SecItemAdd dictionary of one half: its parameters with the key as `kSecValueRef`.
    private static func addition(_ key: SecKey, with parameters: [String: Any]) -> NSDictionary {
        let dictionary = NSMutableDictionary()
        for (name, value) in parameters { dictionary[name as NSString] = value }
        dictionary["class"] = "keys" as NSString
        dictionary["v_Ref"] = key
        return dictionary
    }

    /// The RSA sizes Security generates: 512 to 8192 bits, any number between
    /// (`SecRSAPrivateKeyInit` in SecRSAKey.c, `kMaximumRSAKeyBits`).
    static let appleRSASizes = 512...8192

    /// The RSA sizes swift-crypto generates: BoringSSL (under `_RSA`) makes only multiples of
    /// 128 bits, rounding any other request down, and `_RSA` holds no key below 1024 bits. Every
    /// other size of Security's range is generated with KeychainCrypto's ``RSAPrivateNumbers``.
    static func isGeneratedBySwiftCrypto(rsaBits bits: Int) -> Bool { bits >= 1024 && bits % 128 == 0 }

    static func generate(type: KeyFamily, size: Any?) throws(KeyError) -> KeyMaterial {
        let bits = integer(size)
        if type == .ed25519 {
            // An Ed25519 key has one size; asking for another is a mistake, not a request.
            guard bits == nil || bits == 256 else { throw .parameter("failed to generate key: Ed25519 keys are 256 bits") }
            return .ed25519Private(Curve25519.Signing.PrivateKey())
        }
        // A size Security has no key for fails in the key class's init, whose status SecKeyCreate
        // drops: `SecECKeyGeneratePair` / `SecRSAKeyGeneratePair` then answer errSecParam, which
        // SecKeyCreateRandomKey reports as "failed to generate key" (SecKey.m, SecECKey.m,
        // SecRSAKey.c). errSecKeySizeNotAllowed never reaches the caller.
        if type == .ec {
            guard let bits, let curve = ECCurve(bits: bits) else {
                if bits == 192 || bits == 224 { throw .unimplemented("P-192 and P-224 keys are not available (swift-crypto has no such curves)") }
                throw .parameter("failed to generate key: EC keys are 256, 384 or 521 bits")
            }
            return .ecPrivate(ECPrivateKey(generating: curve))
        }
        guard let bits, appleRSASizes.contains(bits) else {
            throw .parameter("failed to generate key: RSA keys are 512 to 8192 bits")
        }
        guard isGeneratedBySwiftCrypto(rsaBits: bits) else { return try generateOwn(rsaBits: bits) }
        do {
            return .rsaPrivate(try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: bits)))
        } catch {
            throw KeyError(errSecParam, "failed to generate key: an RSA key of \(bits) bits could not be generated")
        }
    }

    /// A key of a size BoringSSL does not generate, made with KeychainCrypto's numbers: held by
    /// swift-crypto from 1024 bits (which takes any size it reads), by ``SmallRSAPrivateKey`` below.
    private static func generateOwn(rsaBits bits: Int) throws(KeyError) -> KeyMaterial {
        var generator = SystemRandomNumberGenerator()
        let numbers = RSAPrivateNumbers.generate(bits: bits, using: &generator)
        if SmallRSA.sizes.contains(bits) { return .rsaSmallPrivate(SmallRSAPrivateKey(numbers: numbers)) }
        do {
            return .rsaPrivate(try _RSA.Signing.PrivateKey(unsafeDERRepresentation: PKCS1DER.privateKey(numbers)))
        } catch {
            throw KeyError(errSecParam, "failed to generate key: an RSA key of \(bits) bits could not be generated")
        }
    }

    static func createWithData(_ data: Data, _ attributes: NSDictionary) throws(KeyError) -> SecKey {
        let values = entries(attributes)
        let type = try keyType(values["type"])
        guard let keyClass = integer(values["kcls"]), keyClass == 0 || keyClass == 1 else {
            if integer(values["kcls"]) == 2 { throw .unimplemented("symmetric keys are not available as SecKey here") }
            throw .parameter("kSecAttrKeyClass is missing or is not public or private")
        }
        return SecKey(material: try KeyMaterial(externalRepresentation: data, family: type, isPrivate: keyClass == 1))
    }

    /// `kSecAttrKeyType`: a number or a numeric string (Security's `getIntValue`).
    private static func keyType(_ value: Any?) throws(KeyError) -> KeyFamily {
        guard let type = integer(value) else { throw .parameter("kSecAttrKeyType is missing or not a key type") }
        if let family = KeyFamily(rawValue: type) { return family }
        if knownUnavailableTypes.contains(type) { throw .unimplemented("keys of type \(type) are not available on this platform") }
        throw .parameter("kSecAttrKeyType \(type) is not a key type")
    }

    /// A number, or a string holding one, as Security's `getIntValue` reads them.
    static func integer(_ value: Any?) -> Int? {
        guard let value else { return nil }
        if let string = value as? String { return Int(string) }
        if let number = value as? NSNumber, !number.isBooleanObject { return number.intValue }
        return nil
    }

    private static func entries(_ dictionary: NSDictionary) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in dictionary.entries { if let key = key as? String { result[key] = value } }
        return result
    }
}
#endif
