#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Foundation
import SwiftASN1
import X509

/// What the keychain reads out of a certificate's DER, computed once when a `SecCertificate` is
/// made: the raw fields Apple stores as attributes (serial number bytes, name contents, the public
/// key's bytes) and the texts its summary functions show. Follows what `SecCertificate.c`
/// (`SecCertificateParse`) keeps for each certificate.
struct CertificateFields: Sendable {
    /// The X.509 version as written (0 = v1, 2 = v3).
    let version: Int
    /// The serial number INTEGER's content bytes, exactly as encoded (a leading zero included).
    let serialNumber: Data
    /// The issuer and subject Names' contents (without the outer SEQUENCE's tag and length).
    let issuerContent: Data
    let subjectContent: Data
    /// The same contents normalised as Apple compares names (`NameNormalizer`).
    let normalizedIssuer: Data
    let normalizedSubject: Data
    /// The subjectPublicKey BIT STRING's bytes: an EC point or a PKCS#1 RSAPublicKey.
    let publicKeyBytes: Data
    /// The SubjectPublicKeyInfo's algorithm OID (1.2.840.10045.2.1 EC, 1.2.840.113549.1.1.1 RSA).
    let publicKeyAlgorithm: String
    /// The named curve of an EC key, when the parameters name one.
    let publicKeyCurve: String?
    /// The subject's attributes in the order they are encoded: (OID, text).
    let subjectAttributes: [(type: String, value: String)]
    /// Subject alternative names of the two kinds Apple's summary functions read.
    let emailNames: [String]
    let dnsNames: [String]
    /// The subject key identifier extension's value, when present.
    let subjectKeyID: Data?

    init(der: [UInt8], parsed: Certificate) throws(MalformedStructure) {
        let certificate = try ASN1Reading.der(der).children(.sequence)
        var tbs = try certificate.element(0).children(.sequence)
        if let first = tbs.first, first.identifier == ASN1Node.context(0) {
            version = try first.children(ASN1Node.context(0)).element(0).smallInteger(maximum: 2)
            tbs.removeFirst()
        } else {
            version = 0
        }
        serialNumber = Data(try tbs.element(0).primitive(.integer))
        let issuer = try tbs.element(2)
        let subject = try tbs.element(4)
        issuerContent = try Self.nameContent(issuer)
        subjectContent = try Self.nameContent(subject)
        normalizedIssuer = try NameNormalizer.normalize(issuer)
        normalizedSubject = try NameNormalizer.normalize(subject)
        let spki = try tbs.element(5).children(.sequence)
        let algorithm = try spki.element(0).children(.sequence)
        publicKeyAlgorithm = try algorithm.element(0).objectIdentifier()
        publicKeyCurve = algorithm.count > 1 ? try? algorithm[1].objectIdentifier() : nil
        do {
            publicKeyBytes = Data(try ASN1BitString(derEncoded: spki.element(1)).bytes)
        } catch {
            throw MalformedStructure()
        }
        subjectAttributes = try Self.attributes(of: subject)
        var emails: [String] = []
        var hosts: [String] = []
        if let names = try? parsed.extensions.subjectAlternativeNames {
            for name in names {
                switch name {
                case .rfc822Name(let address): emails.append(address)
                case .dnsName(let host): hosts.append(host)
                default: break
                }
            }
        }
        emailNames = emails
        dnsNames = hosts
        subjectKeyID = (try? parsed.extensions.subjectKeyIdentifier).flatMap { $0 }.map { Data($0.keyIdentifier) }
    }

    private static func nameContent(_ name: ASN1Node) throws(MalformedStructure) -> Data {
        _ = try name.children(.sequence)
        // The encoded bytes minus the SEQUENCE's tag and length: parse the header's size.
        let encoded = name.encodedBytes
        guard encoded.count >= 2 else { throw MalformedStructure() }
        let lengthByte = encoded[encoded.startIndex + 1]
        let header = lengthByte < 0x80 ? 2 : 2 + Int(lengthByte & 0x7F)
        guard encoded.count >= header else { throw MalformedStructure() }
        return Data(encoded.dropFirst(header))
    }

    /// Every attribute of a Name with a text value, in encoding order.
    private static func attributes(of name: ASN1Node) throws(MalformedStructure) -> [(type: String, value: String)] {
        var result: [(type: String, value: String)] = []
        for rdn in try name.children(.sequence) {
            for pair in try rdn.children(.set) {
                let parts = try pair.children(.sequence)
                let type = try parts.element(0).objectIdentifier()
                if let text = DirectoryText.string(try parts.element(1)) { result.append((type, text)) }
            }
        }
        return result
    }

    // The attribute types Apple's summary functions look for.
    static let commonName = "2.5.4.3"
    static let organizationName = "2.5.4.10"
    static let organizationalUnitName = "2.5.4.11"
    static let descriptionAttribute = "2.5.4.13"
    static let emailAddress = "1.2.840.113549.1.9.1"
}

/// The text of a directory string, in whichever of X.520's string types it is encoded.
enum DirectoryText {
    static func string(_ node: ASN1Node) -> String? {
        guard case .primitive(let bytes) = node.content, node.identifier.tagClass == .universal else { return nil }
        switch node.identifier.tagNumber {
        case 12, 18, 19, 22, 26: // UTF8, Numeric, Printable, IA5, Visible
            return String(bytes: bytes, encoding: .utf8)
        case 20: // Teletex: in practice Latin-1
            return String(bytes: bytes, encoding: .isoLatin1)
        case 30: // BMP: UTF-16 big-endian
            return String(bytes: bytes, encoding: .utf16BigEndian)
        case 28: // Universal: UTF-32 big-endian
            return String(bytes: bytes, encoding: .utf32BigEndian)
        default:
            return nil
        }
    }
}
#endif
