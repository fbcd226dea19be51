#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainCrypto

/// What signature input an algorithm takes: the message (hashed here with the named hash) or a
/// digest the caller computed (of the named hash's length, or any length when none is named).
enum SignatureInput: Equatable {
    case message(HashName)
    case digest(HashName?)
}

/// An algorithm name taken apart (the grammar of the `algid:` strings in Security's
/// SecKeyAdaptors.m and SecItemConstants).
enum AlgorithmName: Equatable {
    /// ECDSA; `der` is X9.62 (a DER ECDSA-Sig-Value), otherwise RFC 4754 (r ‖ s).
    case ecdsa(der: Bool, input: SignatureInput)
    case rsaSignatureRaw
    case rsaPKCS1v15(SignatureInput)
    case rsaPSS(SignatureInput)
    case rsaEncryptionRaw
    case rsaEncryptionPKCS1
    case rsaOAEP(HashName, aesGCM: Bool)
    case ecies(cofactor: Bool, hash: HashName, variableIV: Bool)
    case ecdh(cofactor: Bool, kdf: HashName?)
    /// Ed25519 (RFC 8032): over the whole message, with the SHA-512 the scheme itself uses.
    case eddsa
    /// A name Security has that no key type here supports (post-quantum, legacy forms).
    case other

    init?(_ algorithm: SecKeyAlgorithm) {
        let parts = algorithm.name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts[0] == "algid" else { return nil }
        let rest = Array(parts.dropFirst(3))
        switch (parts[1], parts[2]) {
        case ("sign", "ECDSA"):
            guard let first = rest.first else { return nil }
            if first == "RFC4754" && rest.count == 1 { self = .ecdsa(der: false, input: .digest(nil)); return }
            guard let (kind, scheme) = Self.splitKind(first), scheme == "X962" || scheme == "RFC4754",
                  let input = Self.input(kind, rest.dropFirst()) else { return nil }
            self = .ecdsa(der: scheme == "X962", input: input)
        case ("sign", "RSA"):
            guard let first = rest.first else { return nil }
            if first == "raw" && rest.count == 1 { self = .rsaSignatureRaw; return }
            guard let (kind, scheme) = Self.splitKind(first) else { return nil }
            switch scheme {
            case "PKCS1v15":
                guard let input = Self.input(kind, rest.dropFirst()) else { return nil }
                self = .rsaPKCS1v15(input)
            case "PSS":
                // PSS names say the hash, the MGF1 hash and the salt length (the digest's).
                guard rest.count == 4, let hash = HashName(rawValue: rest[1]), rest[2] == rest[1] else { return nil }
                self = .rsaPSS(kind == "message" ? .message(hash) : .digest(hash))
            default: return nil
            }
        case ("encrypt", "RSA"):
            switch rest.first {
            case "raw" where rest.count == 1: self = .rsaEncryptionRaw
            case "PKCS1" where rest.count == 1: self = .rsaEncryptionPKCS1
            case "OAEP":
                guard rest.count >= 2, let hash = HashName(rawValue: rest[1]) else { return nil }
                if rest.count == 2 { self = .rsaOAEP(hash, aesGCM: false) } else if rest.count == 3 && rest[2] == "AESGCM" {
                    self = .rsaOAEP(hash, aesGCM: true)
                } else { return nil }
            default: return nil
            }
        case ("encrypt", "ECIES"):
            guard rest.count == 4, rest[0] == "ECDH" || rest[0] == "ECDHC", rest[1] == "KDFX963",
                  let hash = HashName(rawValue: rest[2]), rest[3] == "AESGCM" || rest[3] == "AESGCM-KDFIV" else { self = .other; return }
            self = .ecies(cofactor: rest[0] == "ECDHC", hash: hash, variableIV: rest[3] == "AESGCM-KDFIV")
        case ("sign", "EdDSA"):
            guard rest == ["message-Curve25519", "SHA512"] else { self = .other; return }
            self = .eddsa
        case ("keyexchange", "ECDH"), ("keyexchange", "ECDHC"):
            let cofactor = parts[2] == "ECDHC"
            if rest.isEmpty { self = .ecdh(cofactor: cofactor, kdf: nil); return }
            guard rest.count == 2, rest[0] == "KDFX963", let hash = HashName(rawValue: rest[1]) else { return nil }
            self = .ecdh(cofactor: cofactor, kdf: hash)
        default:
            self = .other
        }
    }

    /// "digest-X962" → ("digest", "X962").
    private static func splitKind(_ part: String) -> (String, String)? {
        guard let dash = part.firstIndex(of: "-") else { return nil }
        let kind = String(part[..<dash])
        guard kind == "digest" || kind == "message" else { return nil }
        return (kind, String(part[part.index(after: dash)...]))
    }

    private static func input(_ kind: String, _ rest: ArraySlice<String>) -> SignatureInput? {
        if rest.isEmpty { return kind == "digest" ? .digest(nil) : nil }
        guard rest.count == 1, let hash = HashName(rawValue: rest[rest.startIndex]) else { return nil }
        return kind == "message" ? .message(hash) : .digest(hash)
    }

    /// The operations the algorithm is for.
    var operations: Set<SecKeyOperationType> {
        switch self {
        case .ecdsa, .rsaSignatureRaw, .rsaPKCS1v15, .rsaPSS, .eddsa: return [.sign, .verify]
        case .rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaOAEP, .ecies: return [.encrypt, .decrypt]
        case .ecdh: return [.keyExchange]
        case .other: return []
        }
    }

    /// Whether the algorithm is for this kind of key.
    func fits(_ family: KeyFamily) -> Bool {
        switch self {
        case .ecdsa, .ecies, .ecdh: return family == .ec
        case .rsaSignatureRaw, .rsaPKCS1v15, .rsaPSS, .rsaEncryptionRaw, .rsaEncryptionPKCS1, .rsaOAEP: return family == .rsa
        case .eddsa: return family == .ed25519
        case .other: return false
        }
    }
}
#endif
