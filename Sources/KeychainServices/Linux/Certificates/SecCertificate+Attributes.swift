#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation
import KeychainStore

extension SecCertificate: KeychainItemReference {
    static var storedClass: ItemClass { .certificate }

    /// What a certificate filters on as a query's `kSecValueRef`: every attribute of its
    /// attribute dictionary (SecItem.c keeps them all for certificates).
    static let queryAttributeNames: Set<String> = [
        CertificateAttribute.type, CertificateAttribute.encoding, CertificateAttribute.subject, CertificateAttribute.issuer,
        CertificateAttribute.serialNumber, CertificateAttribute.subjectKeyID, CertificateAttribute.publicKeyHash,
    ]

    /// The item attributes a certificate stands for, as `SecCertificateCopyAttributeDictionary`
    /// (`SecCertificate.c`) makes them: `ctyp` (X.509 version + 1, CSSM's certificate types),
    /// `cenc` (3, DER), `subj` and `issr` (normalised names), `slnr` (serial number bytes),
    /// `skid` when the certificate has one, `pkhh` (SHA-1 of the public key's bytes). Plus the
    /// label Apple's client gives a certificate added by reference without one
    /// (`infer_cert_label` in `SecItem.c`): its subject summary. The label is not among the
    /// query names, so it is only ever used on add.
    func itemAttributes() -> [String: AttributeValue] {
        var attributes: [String: AttributeValue] = [
            CertificateAttribute.type: .integer(Int64(fields.version + 1)),
            CertificateAttribute.encoding: .integer(3),
            CertificateAttribute.subject: .data(fields.normalizedSubject),
            CertificateAttribute.issuer: .data(fields.normalizedIssuer),
            CertificateAttribute.serialNumber: .data(fields.serialNumber),
            CertificateAttribute.publicKeyHash: .data(publicKeyHash),
        ]
        if let skid = fields.subjectKeyID { attributes[CertificateAttribute.subjectKeyID] = .data(skid) }
        if let label = subjectSummary { attributes[AttributeName.label] = .string(label) }
        return attributes
    }

    /// A certificate item's data is its DER.
    func itemData() throws(StatusError) -> Data { der }

    static func reference(from item: StoredItem, context: ReferenceContext) -> AnyObject? {
        item.secret.flatMap { SecCertificate(der: $0) }
    }

    /// SHA-1 of the subjectPublicKey's bytes: the certificate's `pkhh`, equal to its private
    /// key's application label (`klbl`), which is how identities are formed.
    var publicKeyHash: Data { Data(Insecure.SHA1.hash(data: fields.publicKeyBytes)) }
}

/// The certificate class's own attribute names (`kSecAttrCertificateType` and its siblings).
enum CertificateAttribute {
    static let type = "ctyp"
    static let encoding = "cenc"
    static let subject = "subj"
    static let issuer = "issr"
    static let serialNumber = "slnr"
    static let subjectKeyID = "skid"
    static let publicKeyHash = "pkhh"
}

extension NameNormalizer {
    /// A `kSecAttrIssuer` query value in Apple's client (`SecItemAttributesPrepare` in
    /// `SecItem.c`): when it is a whole DER Name (a SEQUENCE), its normalised contents, so that a
    /// certificate's raw issuer finds the stored one; anything else is left as it is.
    static func issuerQueryValue(_ value: Data) -> Data? {
        guard value.first == 0x30, let node = try? ASN1Reading.der([UInt8](value)) else { return nil }
        return try? normalize(node)
    }
}
#endif
