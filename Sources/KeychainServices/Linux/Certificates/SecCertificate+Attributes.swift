#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import Crypto
import Foundation
import KeychainStore

extension SecCertificate {
    /// The item attributes a certificate stands for, as `SecCertificateCopyAttributeDictionary`
    /// (`SecCertificate.c`) makes them when a certificate is added or searched by `kSecValueRef`:
    /// the class, `ctyp` (X.509 version + 1, CSSM's certificate types), `cenc` (3, DER),
    /// `subj` and `issr` (normalised names), `slnr` (serial number bytes), `skid` when the
    /// certificate has one, `pkhh` (SHA-1 of the public key's bytes) and the DER as the item's data.
    /// No label: Apple's client adds the subject summary as `labl` on add only
    /// (``labelForAdd``).
    var itemAttributes: [String: Any] {
        var attributes: [String: Any] = [
            "class": ItemClass.certificate.code,
            CertificateAttribute.type: NSNumber(value: Int32(fields.version + 1)),
            CertificateAttribute.encoding: NSNumber(value: Int32(3)),
            CertificateAttribute.subject: fields.normalizedSubject,
            CertificateAttribute.issuer: fields.normalizedIssuer,
            CertificateAttribute.serialNumber: fields.serialNumber,
            CertificateAttribute.publicKeyHash: publicKeyHash,
            "v_Data": der,
        ]
        if let skid = fields.subjectKeyID { attributes[CertificateAttribute.subjectKeyID] = skid }
        return attributes
    }

    /// The label Apple's `SecItemAdd` gives a certificate added by reference without one
    /// (`infer_cert_label` in `SecItem.c`): its subject summary.
    var labelForAdd: String? { subjectSummary }

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
