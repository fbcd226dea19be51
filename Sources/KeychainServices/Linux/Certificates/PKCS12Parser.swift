#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import _CryptoExtras
import Foundation
import KeychainCrypto
import SwiftASN1

/// Why a PKCS#12 file could not be read, each with the status `SecPKCS12Import` gives for it
/// (`p12_error` in `SecImportExport.c`: password → errSecAuthFailed, decode → errSecDecode).
/// Apple's importer has only these two: a MAC it cannot compute (an unknown digest) is the
/// password's failure, an encryption scheme it does not know a decoding one (`p12VerifyMac`,
/// `p12Decrypt` in `p12import.c`), and so they are here.
enum PKCS12Error: Error, Equatable {
    /// Not a PKCS#12 structure, damaged, or encrypted in a scheme not read here.
    case decode
    /// The passphrase does not verify the MAC (or, in a file without a MAC, does not decrypt).
    case authentication

    var status: OSStatus {
        switch self {
        case .decode: return errSecDecode
        case .authentication: return errSecAuthFailed
        }
    }
}

/// One bag of a PKCS#12 file, with the attributes that pair keys with certificates.
struct PKCS12Bag: Sendable {
    /// A certificate's DER, or a private key's PKCS#8 PrivateKeyInfo.
    let contents: Data
    let localKeyID: Data?
    let friendlyName: String?
}

/// What a PKCS#12 file holds.
struct PKCS12Contents: Sendable {
    var keys: [PKCS12Bag] = []
    var certificates: [PKCS12Bag] = []
}

/// Reads PKCS#12 files (RFC 7292): the PFX, its MAC (HMAC with the PKCS#12 key derivation, any of
/// SHA-1/224/256/384/512, the digests Apple's `p12VerifyMac` takes), password-encrypted contents and shrouded keys in PBES2 (PBKDF2 with
/// HMAC-SHA-1/256/384/512, AES-128/192/256-CBC: what OpenSSL 3 writes by default), plain
/// contents and key bags, nested safe-contents bags; and the PKCS#12 PBEs of RFC 7292 appendix C
/// that OpenSSL 1.x wrote (`-legacy`: RC2-40 and three-key triple DES; RC2-128 and RC4 too, see
/// ``PKCS12LegacyEncryption``).
enum PKCS12Parser {
    /// Iteration counts above this are refused as damaged: a file must not make the importer spin
    /// for minutes. OpenSSL writes 2,048; the bound leaves room for files made a thousand times
    /// stronger.
    static let defaultIterationLimit = 10_000_000
    private static let maximumNesting = 8

    static func parse(_ data: Data, password: String, iterationLimit: Int = defaultIterationLimit) throws(PKCS12Error) -> PKCS12Contents {
        var reader = Reader(password: password, iterationLimit: iterationLimit)
        do {
            return try reader.read([UInt8](data))
        } catch let error as PKCS12Error {
            throw error
        } catch {
            throw .decode
        }
    }

    private struct Reader {
        let password: String
        let iterationLimit: Int
        var macVerified = false
        /// The passphrase as the PKCS#12 key derivation takes it: the encoding that verified the
        /// MAC (an empty one has two), else the standard one.
        var passwordBytes: [UInt8]
        var contents = PKCS12Contents()

        init(password: String, iterationLimit: Int) {
            self.password = password
            self.iterationLimit = iterationLimit
            self.passwordBytes = PKCS12KeyDerivation.passwordBytes(password)
        }

        mutating func read(_ bytes: [UInt8]) throws -> PKCS12Contents {
            let pfx = try ASN1Reading.ber(bytes).children(.sequence)
            guard try pfx.element(0).smallInteger() == 3 else { throw PKCS12Error.decode }
            let authenticatedSafe = try dataContent(pfx.element(1))
            if pfx.count > 2 {
                passwordBytes = try verifyMAC(pfx[2], over: authenticatedSafe)
                macVerified = true
            }
            for info in try ASN1Reading.ber(authenticatedSafe).children(.sequence) {
                let parts = try info.children(.sequence)
                switch try parts.element(0).objectIdentifier() {
                case OID.data:
                    try readSafeContents(try dataContent(info), depth: 0)
                case OID.encryptedData:
                    let encrypted = try parts.element(1).children(ASN1Node.context(0)).element(0).children(.sequence)
                    let contentInfo = try encrypted.element(1).children(.sequence)
                    let algorithm = try contentInfo.element(1)
                    let ciphertext = try contentInfo.element(2).octetString(ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                    let plaintext = try decrypt(ciphertext, algorithm: algorithm)
                    do {
                        try readSafeContents(plaintext, depth: 0)
                    } catch {
                        throw unreadableDecryption(error)
                    }
                default:
                    // Enveloped (public-key encrypted) and other contents are skipped, as
                    // Apple's `authSafeElementParse` skips them.
                    continue
                }
            }
            return contents
        }

        /// The octets of a ContentInfo of type data: `SEQUENCE { data, [0] EXPLICIT OCTET STRING }`.
        private func dataContent(_ info: ASN1Node) throws -> [UInt8] {
            let parts = try info.children(.sequence)
            guard try parts.element(0).objectIdentifier() == OID.data else { throw PKCS12Error.decode }
            return try parts.element(1).children(ASN1Node.context(0)).element(0).octetString()
        }

        /// `MacData ::= SEQUENCE { DigestInfo, macSalt OCTET STRING, iterations INTEGER DEFAULT 1 }`.
        /// Returns the encoding of the passphrase that verified it.
        private func verifyMAC(_ node: ASN1Node, over authenticatedSafe: [UInt8]) throws -> [UInt8] {
            let macData = try node.children(.sequence)
            let digestInfo = try macData.element(0).children(.sequence)
            let algorithm = try digestInfo.element(0).children(.sequence).element(0).objectIdentifier()
            guard let digest = OID.macDigests[algorithm] else { throw PKCS12Error.authentication }
            let expected = try digestInfo.element(1).octetString()
            let salt = try macData.element(1).octetString()
            let iterations = macData.count > 2 ? try macData[2].smallInteger() : 1
            guard iterations <= iterationLimit else { throw PKCS12Error.decode }
            // An empty passphrase is tried in both of its encodings: two zero bytes, and no bytes
            // at all (how some writers encode "no password").
            var candidates = [PKCS12KeyDerivation.passwordBytes(password)]
            if password.isEmpty { candidates.append([]) }
            for candidate in candidates {
                let key = PKCS12KeyDerivation.derive(password: candidate, salt: salt, iterations: iterations,
                                                     purpose: .mac, digest: digest, length: digest.byteCount)
                if constantTimeEqual(digest.hmac(key: key, data: authenticatedSafe), expected) { return candidate }
            }
            throw PKCS12Error.authentication
        }

        private mutating func readSafeContents(_ bytes: [UInt8], depth: Int) throws {
            guard depth < maximumNesting else { throw PKCS12Error.decode }
            for bag in try ASN1Reading.ber(bytes).children(.sequence) {
                let parts = try bag.children(.sequence)
                let type = try parts.element(0).objectIdentifier()
                let value = try parts.element(1).children(ASN1Node.context(0)).element(0)
                let (localKeyID, friendlyName) = try attributes(parts.count > 2 ? parts[2] : nil)
                switch type {
                case OID.keyBag:
                    contents.keys.append(PKCS12Bag(contents: Data(value.encodedBytes), localKeyID: localKeyID, friendlyName: friendlyName))
                case OID.shroudedKeyBag:
                    let encrypted = try value.children(.sequence)
                    let key = try decrypt(try encrypted.element(1).octetString(), algorithm: try encrypted.element(0))
                    do {
                        _ = try ASN1Reading.ber(key).children(.sequence) // a PrivateKeyInfo, or the passphrase was wrong
                    } catch {
                        throw unreadableDecryption(error)
                    }
                    contents.keys.append(PKCS12Bag(contents: Data(key), localKeyID: localKeyID, friendlyName: friendlyName))
                case OID.certBag:
                    let certificate = try value.children(.sequence)
                    // Only X.509 certificates (not SDSI ones) are read, as Apple's importer does.
                    guard try certificate.element(0).objectIdentifier() == OID.x509Certificate else { continue }
                    let der = try certificate.element(1).children(ASN1Node.context(0)).element(0).octetString()
                    contents.certificates.append(PKCS12Bag(contents: Data(der), localKeyID: localKeyID, friendlyName: friendlyName))
                case OID.safeContentsBag:
                    try readSafeContents(Array(value.encodedBytes), depth: depth + 1)
                default:
                    continue // CRL and secret bags: nothing the keychain keeps
                }
            }
        }

        /// A bag's friendlyName (BMPString) and localKeyID (OCTET STRING) attributes.
        private func attributes(_ node: ASN1Node?) throws -> (Data?, String?) {
            guard let node else { return (nil, nil) }
            var localKeyID: Data?
            var friendlyName: String?
            for attribute in try node.children(.set) {
                let parts = try attribute.children(.sequence)
                let values = try parts.element(1).children(.set)
                guard let first = values.first else { continue }
                switch try parts.element(0).objectIdentifier() {
                case OID.localKeyID: localKeyID = Data(try first.octetString())
                case OID.friendlyName: friendlyName = DirectoryText.string(first)
                default: break
                }
            }
            return (localKeyID, friendlyName)
        }

        /// Decrypts password-encrypted bytes under the algorithm identifier that names the scheme.
        private func decrypt(_ ciphertext: [UInt8], algorithm node: ASN1Node) throws -> [UInt8] {
            let algorithm = try node.children(.sequence)
            let oid = try algorithm.element(0).objectIdentifier()
            if let legacy = PKCS12LegacyEncryption.scheme(oid) {
                // `pkcs-12PbeParams ::= SEQUENCE { salt OCTET STRING, iterations INTEGER }`.
                let parameters = try algorithm.element(1).children(.sequence)
                let salt = try parameters.element(0).octetString()
                let iterations = try parameters.element(1).smallInteger()
                guard iterations >= 1, iterations <= iterationLimit else { throw PKCS12Error.decode }
                do {
                    return try PKCS12LegacyEncryption.decrypt(ciphertext, scheme: legacy, password: passwordBytes,
                                                              salt: salt, iterations: iterations)
                } catch let error as PKCS12Error {
                    throw error
                } catch {
                    throw macVerified ? PKCS12Error.decode : PKCS12Error.authentication // bad padding, as below
                }
            }
            guard oid == OID.pbes2 else { throw PKCS12Error.decode }
            let parameters = try algorithm.element(1).children(.sequence)
            let kdf = try parameters.element(0).children(.sequence)
            guard try kdf.element(0).objectIdentifier() == OID.pbkdf2 else { throw PKCS12Error.decode }
            let kdfParameters = try kdf.element(1).children(.sequence)
            let salt = try kdfParameters.element(0).octetString()
            let iterations = try kdfParameters.element(1).smallInteger()
            guard iterations >= 1, iterations <= iterationLimit else { throw PKCS12Error.decode }
            var prf = KDF.Insecure.PBKDF2.HashFunction.insecureSHA1
            var statedLength: Int?
            for extra in kdfParameters.dropFirst(2) {
                if extra.identifier == .integer {
                    statedLength = try extra.smallInteger(maximum: 64)
                } else {
                    prf = try pseudoRandomFunction(try extra.children(.sequence).element(0).objectIdentifier())
                }
            }
            let scheme = try parameters.element(1).children(.sequence)
            guard let keyLength = OID.aesCBCKeyLengths[try scheme.element(0).objectIdentifier()] else { throw PKCS12Error.decode }
            if let statedLength, statedLength != keyLength { throw PKCS12Error.decode }
            let iv = try scheme.element(1).octetString()
            guard iv.count == 16, !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw PKCS12Error.decode }
            do {
                let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: prf,
                                                            outputByteCount: keyLength, unsafeUncheckedRounds: iterations)
                return Array(try AES._CBC.decrypt(ciphertext, using: key, iv: AES._CBC.IV(ivBytes: iv)))
            } catch {
                // Bad padding: with the MAC verified the file is damaged; without one, the
                // passphrase is the likelier culprit.
                throw macVerified ? PKCS12Error.decode : PKCS12Error.authentication
            }
        }

        /// What a failure to read decrypted bytes is reported as. With the MAC verified, the
        /// passphrase is right and the file is damaged. Without a MAC nothing has checked the
        /// passphrase: a wrong one passes CBC's padding check about once in 256 tries and yields
        /// noise that does not read, so that is the passphrase's fault, as bad padding is.
        private func unreadableDecryption(_ error: any Error) -> any Error {
            guard !macVerified else { return error }
            if let known = error as? PKCS12Error, known != .decode { return known }
            return PKCS12Error.authentication
        }

        private func pseudoRandomFunction(_ oid: String) throws -> KDF.Insecure.PBKDF2.HashFunction {
            switch oid {
            case "1.2.840.113549.2.7": return .insecureSHA1
            case "1.2.840.113549.2.9": return .sha256
            case "1.2.840.113549.2.10": return .sha384
            case "1.2.840.113549.2.11": return .sha512
            default: throw PKCS12Error.decode
            }
        }
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The object identifiers of RFC 7292, RFC 8018 and the AES modes.
    enum OID {
        static let data = "1.2.840.113549.1.7.1"
        static let encryptedData = "1.2.840.113549.1.7.6"
        static let keyBag = "1.2.840.113549.1.12.10.1.1"
        static let shroudedKeyBag = "1.2.840.113549.1.12.10.1.2"
        static let certBag = "1.2.840.113549.1.12.10.1.3"
        static let safeContentsBag = "1.2.840.113549.1.12.10.1.6"
        static let x509Certificate = "1.2.840.113549.1.9.22.1"
        static let friendlyName = "1.2.840.113549.1.9.20"
        static let localKeyID = "1.2.840.113549.1.9.21"
        static let pbes2 = "1.2.840.113549.1.5.13"
        static let pbkdf2 = "1.2.840.113549.1.5.12"
        static let aesCBCKeyLengths = ["2.16.840.1.101.3.4.1.2": 16, "2.16.840.1.101.3.4.1.22": 24, "2.16.840.1.101.3.4.1.42": 32]
        /// The hashes a file may name for its MAC and its key derivation.
        static let macDigests: [String: HashName] = [
            "1.3.14.3.2.26": .sha1, "2.16.840.1.101.3.4.2.4": .sha224, "2.16.840.1.101.3.4.2.1": .sha256,
            "2.16.840.1.101.3.4.2.2": .sha384, "2.16.840.1.101.3.4.2.3": .sha512,
        ]
    }
}
#endif
