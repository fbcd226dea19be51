#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import KeychainCrypto
import SwiftASN1

/// Writes PKCS#12 files (RFC 7292) in the layout OpenSSL 3's `pkcs12 -export` uses by default:
/// the certificates in one PBES2-encrypted SafeContents, the private keys as shrouded key bags
/// (PBES2: PBKDF2-HMAC-SHA-256, AES-256-CBC) in a plain one, and an HMAC-SHA-256 MAC keyed by
/// PKCS#12's own key derivation over the whole. A key and its certificate carry the same
/// localKeyID, which is how readers (``PKCS12Parser``, OpenSSL, Apple's importer) pair them.
package struct PKCS12Writer {
    /// One bag's attributes: the friendly name readers show, and the ID pairing a key with its
    /// certificate.
    package struct Attributes: Sendable {
        package var friendlyName: String?
        package var localKeyID: [UInt8]?
        package init(friendlyName: String? = nil, localKeyID: [UInt8]? = nil) {
            self.friendlyName = friendlyName
            self.localKeyID = localKeyID
        }
    }

    private var certificates: [(der: [UInt8], attributes: Attributes)] = []
    private var keys: [(privateKeyInfo: [UInt8], attributes: Attributes)] = []
    /// PBKDF2 rounds and MAC rounds.
    package var iterations = PasswordBasedEncryption.defaultIterations

    package init() {}

    /// Adds a certificate (DER).
    package mutating func add(certificate der: [UInt8], _ attributes: Attributes = Attributes()) {
        certificates.append((der, attributes))
    }

    /// Adds a private key as a PKCS#8 PrivateKeyInfo (DER); it is encrypted when written.
    package mutating func add(privateKeyInfo der: [UInt8], _ attributes: Attributes = Attributes()) {
        keys.append((der, attributes))
    }

    /// The file's bytes (a DER PFX), every secret encrypted under `password`.
    package func write(password: String) throws -> [UInt8] {
        typealias OID = PKCS12Parser.OID
        var authenticatedSafe: [[UInt8]] = []
        if !certificates.isEmpty {
            let bags = certificates.map { certificate in
                let certBag = DERWriting.sequence(DERWriting.objectIdentifier(OID.x509Certificate),
                                                  DERWriting.explicit(0, DERWriting.octetString(certificate.der)))
                return Self.safeBag(OID.certBag, value: certBag, certificate.attributes)
            }
            let (algorithm, ciphertext) = try PasswordBasedEncryption.encrypt(DERWriting.constructed(.sequence, bags),
                                                                              password: password, iterations: iterations)
            // EncryptedData { version 0, EncryptedContentInfo { data, algorithm, [0] IMPLICIT ciphertext } }
            let encryptedContentInfo = DERWriting.sequence(DERWriting.objectIdentifier(OID.data), algorithm,
                                                           DERWriting.primitive(ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific), ciphertext))
            let encryptedData = DERWriting.sequence(DERWriting.integer(0), encryptedContentInfo)
            authenticatedSafe.append(DERWriting.sequence(DERWriting.objectIdentifier(OID.encryptedData),
                                                         DERWriting.explicit(0, encryptedData)))
        }
        if !keys.isEmpty {
            let bags = try keys.map { key in
                let shrouded = try PasswordBasedEncryption.encryptedPrivateKeyInfo(key.privateKeyInfo, password: password,
                                                                                  iterations: iterations)
                return Self.safeBag(OID.shroudedKeyBag, value: shrouded, key.attributes)
            }
            authenticatedSafe.append(Self.dataContentInfo(DERWriting.constructed(.sequence, bags)))
        }
        let safeBytes = DERWriting.constructed(.sequence, authenticatedSafe)
        return DERWriting.sequence(DERWriting.integer(3), Self.dataContentInfo(safeBytes), macData(over: safeBytes, password: password))
    }

    /// `MacData { DigestInfo { sha256, HMAC }, macSalt, iterations }`.
    private func macData(over content: [UInt8], password: String) -> [UInt8] {
        let salt = PasswordBasedEncryption.randomBytes(PasswordBasedEncryption.saltLength)
        let digest = HashName.sha256
        let key = PKCS12KeyDerivation.derive(password: PKCS12KeyDerivation.passwordBytes(password), salt: salt,
                                             iterations: iterations, purpose: .mac, digest: digest, length: digest.byteCount)
        let digestInfo = DERWriting.sequence(DERWriting.algorithm(Self.sha256, parameters: DERWriting.null),
                                             DERWriting.octetString(digest.hmac(key: key, data: content)))
        return DERWriting.sequence(digestInfo, DERWriting.octetString(salt), DERWriting.integer(iterations))
    }

    static let sha256 = "2.16.840.1.101.3.4.2.1"

    /// `ContentInfo { data, [0] EXPLICIT OCTET STRING }`.
    private static func dataContentInfo(_ content: [UInt8]) -> [UInt8] {
        DERWriting.sequence(DERWriting.objectIdentifier(PKCS12Parser.OID.data),
                            DERWriting.explicit(0, DERWriting.octetString(content)))
    }

    /// `SafeBag { bagId, [0] EXPLICIT bagValue, bagAttributes SET OF Attribute OPTIONAL }`.
    private static func safeBag(_ type: String, value: [UInt8], _ attributes: Attributes) -> [UInt8] {
        var elements = [DERWriting.objectIdentifier(type), DERWriting.explicit(0, value)]
        var list: [[UInt8]] = []
        if let name = attributes.friendlyName {
            list.append(DERWriting.sequence(DERWriting.objectIdentifier(PKCS12Parser.OID.friendlyName),
                                            DERWriting.setOf([DERWriting.bmpString(name)])))
        }
        if let id = attributes.localKeyID {
            list.append(DERWriting.sequence(DERWriting.objectIdentifier(PKCS12Parser.OID.localKeyID),
                                            DERWriting.setOf([DERWriting.octetString(id)])))
        }
        if !list.isEmpty { elements.append(DERWriting.setOf(list)) }
        return DERWriting.constructed(.sequence, elements)
    }
}
#endif
