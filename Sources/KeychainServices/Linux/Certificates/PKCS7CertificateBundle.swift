#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import SwiftASN1

/// A certificates-only PKCS#7 / CMS SignedData (RFC 5652 with no signers and no content: the
/// ".p7b" bundle of `openssl crl2pkcs7 -nocrl`, which `openssl pkcs7 -print_certs` lists).
package enum PKCS7CertificateBundle {
    static let signedData = "1.2.840.113549.1.7.2"

    /// The ContentInfo (DER) holding `certificates` (each a DER certificate), in that order.
    package static func encode(_ certificates: [[UInt8]]) -> [UInt8] {
        let signed = DERWriting.sequence(
            DERWriting.integer(1),
            DERWriting.constructed(.set, []),                                         // digestAlgorithms: none
            DERWriting.sequence(DERWriting.objectIdentifier(PKCS12Parser.OID.data)), // encapContentInfo, no content
            // [0] IMPLICIT SET OF Certificate in the given order (leaf first) rather than sorted as
            // strict DER would have it: the order is what readers show, and they accept either.
            DERWriting.constructed(ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific), certificates),
            DERWriting.constructed(.set, []))                                         // signerInfos: none
        return DERWriting.sequence(DERWriting.objectIdentifier(signedData), DERWriting.explicit(0, signed))
    }
}
#endif
