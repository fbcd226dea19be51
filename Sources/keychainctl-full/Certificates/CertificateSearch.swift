import Crypto
import Foundation
import KeychainServices

/// The certificate and identity lookups behind find-certificate, find-identity and the delete
/// commands: `security`'s matching rules (-c: the name contains the text, -e: the certificate is
/// for this e-mail address, -Z: its SHA-1 or SHA-256 hash) over what SecItemCopyMatching returns.
enum CertificateSearch {
    struct Found {
        let certificate: SecCertificate
        let attributes: [String: Any]

        var der: Data { SecCertificateCopyData(certificate) as Data }
        var sha1: String { Insecure.SHA1.hash(data: der).map { String(format: "%02X", $0) }.joined() }
        var sha256: String { SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined() }
        var name: String { SecCertificateCopySubjectSummary(certificate) as String? ?? "" }
    }

    /// Every certificate (or every identity's certificate) of the keychain, in storage order.
    static func all(identities: Bool) -> (status: OSStatus, found: [Found]) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass as String: identities ? kSecClassIdentity : kSecClassCertificate,
                                          kSecReturnRef as String: true, kSecReturnAttributes as String: true,
                                          kSecMatchLimit as String: kSecMatchLimitAll] as CFDictionary, &result)
        guard status == errSecSuccess else { return (status, []) }
        let found = (ResultObjects.dictionaries(result) ?? []).compactMap { attributes -> Found? in
            if let certificate = attributes[kSecValueRef as String] as? SecCertificate { return Found(certificate: certificate, attributes: attributes) }
            guard let identity = attributes[kSecValueRef as String] as? SecIdentity else { return nil }
            var certificate: SecCertificate?
            guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate else { return nil }
            return Found(certificate: certificate, attributes: attributes)
        }
        return (status, found)
    }

    /// `security`'s filters: -c matches the subject summary or the label as a substring, -e an
    /// e-mail address exactly (ignoring case), -Z a hash (SHA-1 or SHA-256, hex, any case).
    static func filter(_ found: [Found], name: String?, email: String?, hash: String?) -> [Found] {
        found.filter { item in
            if let name, !item.name.contains(name), !((item.attributes[kSecAttrLabel as String] as? String)?.contains(name) ?? false) { return false }
            if let email {
                var addresses: CFArray?
                _ = SecCertificateCopyEmailAddresses(item.certificate, &addresses)
                if !((addresses as? [String]) ?? []).contains(where: { $0.caseInsensitiveCompare(email) == .orderedSame }) { return false }
            }
            if let hash {
                let wanted = hash.uppercased().filter(\.isHexDigit)
                if wanted != item.sha1 && wanted != item.sha256 { return false }
            }
            return true
        }
    }

    /// PEM text of a certificate, 64 columns as openssl and `security -p` write it.
    static func pem(_ der: Data) -> String {
        PEMArmour.text(label: "CERTIFICATE", der: der)
    }
}
