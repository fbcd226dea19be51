import Foundation
import KeychainServices
import Testing

/// The policy and import constants carry Apple's strings (`SecPolicy.c`, `SecImportExport.c`),
/// which are what dictionaries really hold.
@Suite struct CertificateConstantsTests {
    static let table: [(String, String, String)] = [
        ("kSecPolicyAppleX509Basic", kSecPolicyAppleX509Basic as String, "1.2.840.113635.100.1.2"),
        ("kSecPolicyAppleSSL", kSecPolicyAppleSSL as String, "1.2.840.113635.100.1.3"),
        ("kSecPolicyOid", kSecPolicyOid as String, "SecPolicyOid"),
        ("kSecPolicyName", kSecPolicyName as String, "SecPolicyName"),
        ("kSecPolicyClient", kSecPolicyClient as String, "SecPolicyClient"),
        ("kSecImportExportPassphrase", kSecImportExportPassphrase as String, "passphrase"),
        ("kSecImportItemLabel", kSecImportItemLabel as String, "label"),
        ("kSecImportItemKeyID", kSecImportItemKeyID as String, "keyid"),
        ("kSecImportItemTrust", kSecImportItemTrust as String, "trust"),
        ("kSecImportItemCertChain", kSecImportItemCertChain as String, "chain"),
        ("kSecImportItemIdentity", kSecImportItemIdentity as String, "identity"),
    ]

    @Test("Every policy and import constant has Apple's raw value", arguments: table.indices)
    func rawValue(_ index: Int) {
        let (name, value, expected) = Self.table[index]
        #expect(value == expected, "\(name)")
    }

    @Test func typeIdentifiersAreDistinct() {
        let identifiers = [SecCertificateGetTypeID(), SecIdentityGetTypeID(), SecPolicyGetTypeID(), SecTrustGetTypeID(),
                           SecKeyGetTypeID(), SecAccessControlGetTypeID(), CFDataGetTypeID()]
        #expect(Set(identifiers).count == identifiers.count)
        #expect(SecTrustResultType.unspecified.rawValue == 4 && SecTrustResultType.recoverableTrustFailure.rawValue == 5)
    }
}
