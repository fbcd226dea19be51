#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
public import Foundation
import X509

/// An X.509 certificate, as Security's `SecCertificateRef`: immutable, made from DER, equal to
/// another certificate with the same bytes. Usable as `kSecValueRef` and returned by
/// `kSecReturnRef` for certificate items.
public final class SecCertificate: NSObject, @unchecked Sendable {
    // Immutable after init: @unchecked only because NSObject is not Sendable.
    /// The DER the certificate was made from.
    let der: Data
    /// swift-certificates' reading of it (validity, extensions, signature checks).
    let parsed: Certificate
    /// The fields Apple's attributes and summaries are made from.
    let fields: CertificateFields

    init?(der: Data) {
        let bytes = [UInt8](der)
        guard let parsed = try? Certificate(derEncoded: bytes),
              let fields = try? CertificateFields(der: bytes, parsed: parsed) else { return nil }
        self.der = der
        self.parsed = parsed
        self.fields = fields
        super.init()
    }

    init(parsed: Certificate, der: Data, fields: CertificateFields) {
        self.der = der
        self.parsed = parsed
        self.fields = fields
        super.init()
    }

    /// Certificates are equal when their bytes are (`SecCertificateEqual`).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecCertificate else { return false }
        return other === self || other.der == der
    }

    public override var hash: Int { der.hashValue }

    /// The subject summary, as Security describes certificates in logs.
    public override var description: String {
        "<cert(\(ObjectIdentifier(self).hashValue)) s: \(subjectSummary ?? "") i: \(parsed.issuer)>"
    }

    /// Apple's subject summary (`SecCertificateCopySubjectSummary` in `SecCertificate.c`): of
    /// the subject's attributes, those of the most wanted kind (common name, then organisational
    /// unit, then organisation, then any other text) joined last-first with ", "; a common name
    /// with descriptions becomes "name (description)". With no text in the subject, the first
    /// e-mail address, else the first DNS name.
    var subjectSummary: String? {
        enum Rank: Int { case none, printable, organization, unit, commonName }
        var rank = Rank.none
        var summary: String?
        var description: String?
        for (type, value) in fields.subjectAttributes {
            let kind: Rank
            switch type {
            case CertificateFields.commonName: kind = .commonName
            case CertificateFields.organizationalUnitName: kind = .unit
            case CertificateFields.organizationName: kind = .organization
            case CertificateFields.descriptionAttribute:
                description = description.map { "\(value), \($0)" } ?? value
                kind = .printable
            default: kind = .printable
            }
            if rank.rawValue < kind.rawValue {
                rank = kind
                summary = value
            } else if rank == kind {
                summary = summary.map { "\(value), \($0)" } ?? value
            }
        }
        if let description, rank == .commonName, let name = summary { summary = "\(name) (\(description))" }
        return summary ?? emailAddresses.first ?? fields.dnsNames.first
    }

    /// E-mail addresses from the subject alternative names, then from the subject's
    /// emailAddress attributes (`SecCertificateCopyRFC822Names`).
    var emailAddresses: [String] {
        fields.emailNames + fields.subjectAttributes.filter { $0.type == CertificateFields.emailAddress }.map(\.value)
    }

    /// The subject's common names, in encoding order.
    var commonNames: [String] {
        fields.subjectAttributes.filter { $0.type == CertificateFields.commonName }.map(\.value)
    }
}

/// The type identifier of certificates.
@discardableResult
public func SecCertificateGetTypeID() -> CFTypeID { SecurityTypeID.certificate.rawValue }

extension SecCertificate: SecurityObject {
    static var securityTypeID: SecurityTypeID { .certificate }
}

/// Makes a certificate from its DER encoding, or returns nil when the bytes are not one.
///
/// - Parameters:
///   - allocator: ignored; pass nil or `kCFAllocatorDefault`.
///   - data: a DER-encoded X.509 certificate (PEM is not accepted, as on Apple platforms).
@discardableResult
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    SecCertificate(der: data.copiedBytes)
}

/// The certificate's DER encoding.
@discardableResult
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    certificate.der.resultObject
}

/// A short human-readable name for the certificate: its subject's common name (or the next
/// best text in the subject, or an e-mail address or host name it is for), or nil.
@discardableResult
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    certificate.subjectSummary.map { $0 as NSString }
}

/// The last common name in the certificate's subject.
///
/// - Returns: `errSecSuccess`, or `errSecInternal` when the subject has no common name (as
///   Apple's implementation answers).
@discardableResult
public func SecCertificateCopyCommonName(_ certificate: SecCertificate, _ commonName: UnsafeMutablePointer<CFString?>) -> OSStatus {
    guard let last = certificate.commonNames.last else { return errSecInternal }
    commonName.pointee = last as NSString
    return errSecSuccess
}

/// The e-mail addresses the certificate is for (subject alternative names, then the subject's
/// emailAddress attributes); an empty array when it names none.
@discardableResult
public func SecCertificateCopyEmailAddresses(_ certificate: SecCertificate, _ emailAddresses: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    emailAddresses.pointee = certificate.emailAddresses.map { $0 as NSString } as NSArray
    return errSecSuccess
}

/// The serial number's bytes as encoded in the certificate (big-endian, two's complement, with
/// any leading zero byte kept).
@discardableResult
public func SecCertificateCopySerialNumberData(_ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    certificate.fields.serialNumber.resultObject
}

/// The issuer's distinguished name in Apple's normalised form (the contents of the Name, without
/// its SEQUENCE header; PrintableStrings upper-cased with blanks collapsed): the form stored as
/// `kSecAttrIssuer`.
@discardableResult
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.fields.normalizedIssuer.resultObject
}

/// The subject's distinguished name in Apple's normalised form, as stored in `kSecAttrSubject`.
@discardableResult
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.fields.normalizedSubject.resultObject
}

/// The start of the certificate's validity period.
@discardableResult
public func SecCertificateCopyNotValidBeforeDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.parsed.notValidBefore as NSDate
}

/// The end of the certificate's validity period.
@discardableResult
public func SecCertificateCopyNotValidAfterDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.parsed.notValidAfter as NSDate
}
#endif
