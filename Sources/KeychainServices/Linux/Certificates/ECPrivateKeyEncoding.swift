#if !KEYCHAIN_USE_SYSTEM_FRAMEWORKS
import SwiftASN1

/// The SEC 1 `ECPrivateKey` structure (RFC 5915) with the curve named, the "EC PRIVATE KEY"
/// that OpenSSL's traditional format holds; built from Apple's external representation of an
/// EC private key (X9.63: `04 ‖ X ‖ Y ‖ K`).
package enum ECPrivateKeyEncoding {
    /// The named-curve OIDs of P-256, P-384 and P-521, by field size in bits.
    static let curves = [256: "1.2.840.10045.3.1.7", 384: "1.3.132.0.34", 521: "1.3.132.0.35"]

    /// nil when `x963` is not a private key on one of those curves.
    package static func sec1(x963 external: [UInt8], bits: Int) -> [UInt8]? {
        guard let curve = curves[bits] else { return nil }
        let fieldLength = (bits + 7) / 8
        guard external.count == 1 + 3 * fieldLength, external.first == 0x04 else { return nil }
        let publicPoint = Array(external.prefix(1 + 2 * fieldLength))
        let scalar = Array(external.suffix(fieldLength))
        return DERWriting.sequence(DERWriting.integer(1), DERWriting.octetString(scalar),
                                   DERWriting.explicit(0, DERWriting.objectIdentifier(curve)),
                                   DERWriting.explicit(1, DERWriting.primitive(.bitString, [0] + publicPoint)))
    }
}
#endif
