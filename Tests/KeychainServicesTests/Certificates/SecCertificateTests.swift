import Foundation
import KeychainServices
import Testing

/// SecCertificate's functions on certificates openssl made, each value checked against what
/// openssl itself reports, and Apple's rules from `SecCertificate.c` (summary order, common name,
/// e-mail sources, serial bytes, normalised names).
@Suite struct SecCertificateTests {
    let fixtures: OpenSSLFixtures

    init() throws {
        fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("ca", subject: "/CN=Test Root CA/O=Swift Keychain Tests")
        try fixtures.makeLeaf("leaf", subject: "/CN=first name/CN=server.example.com/O=Example Org/emailAddress=admin@example.com",
                              issuer: "ca", extensions: ["subjectAltName = DNS:server.example.com, email:alice@example.com, email:bob@example.com"],
                              serial: "0x8000000000000001")
    }

    func certificate(_ name: String) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(name).der") as CFData))
    }

    @Test func derMakesACertificateAndGivesItsBytesBack() throws {
        let der = try fixtures.data("leaf.der")
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        #expect(SecCertificateCopyData(certificate) as Data == der)
        #expect(CFGetTypeID(certificate) == SecCertificateGetTypeID())
        #expect(CFGetTypeID(certificate) != CFDataGetTypeID())
    }

    @Test func anythingButDERIsNil() throws {
        let der = try fixtures.data("leaf.der")
        let pem = try fixtures.data("leaf.pem")
        #expect(SecCertificateCreateWithData(nil, Data() as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, Data("not a certificate".utf8) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, pem as CFData) == nil, "PEM is not accepted, as on Apple platforms")
        #expect(SecCertificateCreateWithData(nil, der.prefix(der.count - 1) as CFData) == nil)
        #expect(SecCertificateCreateWithData(nil, (der + Data([0])) as CFData) == nil, "trailing bytes")
        var flipped = der
        flipped[1] ^= 0x01 // the outer length
        #expect(SecCertificateCreateWithData(nil, flipped as CFData) == nil)
    }

    @Test func equalBytesAreEqualCertificates() throws {
        let one = try certificate("leaf"), two = try certificate("leaf"), ca = try certificate("ca")
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(one != ca)
        #expect(Set([one, two, ca]).count == 2)
        let asAny: Any = one
        #expect(asAny as? SecCertificate == two)
    }

    @Test func subjectSummaryIsTheCommonNamesLastFirst() throws {
        // Apple joins every value of the most wanted kind, the last one first.
        #expect(SecCertificateCopySubjectSummary(try certificate("leaf")) as String? == "server.example.com, first name")
        #expect(SecCertificateCopySubjectSummary(try certificate("ca")) as String? == "Test Root CA")
    }

    @Test func subjectSummaryFallsBackToUnitOrganisationThenAddresses() throws {
        try fixtures.makeLeaf("org", subject: "/C=US/O=Only Org/OU=Unit One", issuer: "ca")
        #expect(SecCertificateCopySubjectSummary(try certificate("org")) as String? == "Unit One")
        try fixtures.makeLeaf("orgonly", subject: "/C=US/O=Only Org", issuer: "ca")
        #expect(SecCertificateCopySubjectSummary(try certificate("orgonly")) as String? == "Only Org")
        try fixtures.makeLeaf("described", subject: "/CN=Named/description=What it is", issuer: "ca")
        #expect(SecCertificateCopySubjectSummary(try certificate("described")) as String? == "Named (What it is)")
        try fixtures.makeLeaf("mailonly", subject: "/", issuer: "ca", extensions: ["subjectAltName = email:only@example.com, DNS:host.example.com"])
        #expect(SecCertificateCopySubjectSummary(try certificate("mailonly")) as String? == "only@example.com")
        try fixtures.makeLeaf("hostonly", subject: "/", issuer: "ca", extensions: ["subjectAltName = DNS:host.example.com"])
        #expect(SecCertificateCopySubjectSummary(try certificate("hostonly")) as String? == "host.example.com")
    }

    @Test func commonNameIsTheLastOne() throws {
        var name: CFString?
        #expect(SecCertificateCopyCommonName(try certificate("leaf"), &name) == errSecSuccess)
        #expect(name as String? == "server.example.com")
        try fixtures.makeLeaf("nocn", subject: "/O=No Common Name", issuer: "ca")
        var none: CFString?
        #expect(SecCertificateCopyCommonName(try certificate("nocn"), &none) == errSecInternal)
        #expect(none == nil)
    }

    @Test func emailAddressesComeFromAlternativeNamesThenTheSubject() throws {
        var addresses: CFArray?
        #expect(SecCertificateCopyEmailAddresses(try certificate("leaf"), &addresses) == errSecSuccess)
        #expect(addresses as? [String] == ["alice@example.com", "bob@example.com", "admin@example.com"])
        var none: CFArray?
        #expect(SecCertificateCopyEmailAddresses(try certificate("ca"), &none) == errSecSuccess)
        #expect((none as? [Any])?.isEmpty == true, "an empty array, not nil")
    }

    @Test func serialNumberIsTheEncodedIntegersBytes() throws {
        let serial = try #require(SecCertificateCopySerialNumberData(try certificate("leaf"), nil) as Data?)
        // openssl prints 8000000000000001; DER needs a zero byte before a set high bit, and Apple keeps it.
        #expect(try fixtures.printed(["x509", "-in", "leaf.pem", "-noout", "-serial"]) == "serial=8000000000000001")
        #expect(serial == Data([0x00, 0x80, 0, 0, 0, 0, 0, 0, 0x01]))
    }

    @Test func normalizedIssuerOfALeafIsTheNormalizedSubjectOfItsCA() throws {
        let leaf = try certificate("leaf"), ca = try certificate("ca")
        let issuer = try #require(SecCertificateCopyNormalizedIssuerSequence(leaf) as Data?)
        #expect(issuer == SecCertificateCopyNormalizedSubjectSequence(ca) as Data?)
        #expect(SecCertificateCopyNormalizedIssuerSequence(ca) as Data? == SecCertificateCopyNormalizedSubjectSequence(ca) as Data?)
        // The contents of the Name: it starts with the first RDN's SET, not the Name's SEQUENCE.
        #expect(issuer.first == 0x31)
    }

    @Test func validityDatesAreTheCertificates() throws {
        let leaf = try certificate("leaf")
        let before = try #require(SecCertificateCopyNotValidBeforeDate(leaf) as Date?)
        let after = try #require(SecCertificateCopyNotValidAfterDate(leaf) as Date?)
        #expect(abs(after.timeIntervalSince(before) - 30 * 86_400) < 2)
        #expect(abs(before.timeIntervalSinceNow) < 600)
    }

    @Test func rsaCertificatesWorkToo() throws {
        try fixtures.makeLeaf("rsa", subject: "/CN=RSA Leaf", issuer: "ca", keyType: .rsa)
        let certificate = try certificate("rsa")
        #expect(SecCertificateCopySubjectSummary(certificate) as String? == "RSA Leaf")
    }
}
