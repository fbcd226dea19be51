import Foundation
import KeychainServices
import KeychainTestSupport
import Testing

/// Certificate and identity items as Apple keeps them: the attributes derived when a certificate
/// is added by `kSecValueRef` (`SecCertificateCopyAttributeDictionary`, `infer_cert_label`), the
/// class's primary key (ctyp, issr, slnr), the return shapes of refs, searches by ref and by a
/// raw DER issuer, and identities formed by a certificate and the private key of its public key.
@Suite struct RulesCertificateItemTests {
    let fixtures: OpenSSLFixtures
    let keychain: TestKeychain

    init() throws {
        fixtures = try OpenSSLFixtures()
        keychain = try TestKeychain()
        try fixtures.makeCA("ca", subject: "/CN=Item Test CA/O=Swift Keychain Tests")
        try fixtures.makeLeaf("leaf", subject: "/CN=leaf.example.com", issuer: "ca",
                              extensions: ["subjectAltName = DNS:leaf.example.com"])
        try fixtures.makeLeaf("other", subject: "/CN=other.example.com", issuer: "ca")
    }

    func certificate(_ name: String) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(name).der") as CFData))
    }

    /// The private key of `name` through a PKCS#12 file, as apps get one.
    func identity(_ name: String) throws -> SecIdentity {
        try fixtures.makePKCS12("\(name).p12", key: name, password: "pw")
        var items: CFArray?
        #expect(SecPKCS12Import(try fixtures.data("\(name).p12") as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items) == errSecSuccess)
        return try #require((items as? [[String: Any]])?.first?[kSecImportItemIdentity as String] as? SecIdentity)
    }

    func hexFromOpenSSL(_ command: String) throws -> Data {
        let text = String(decoding: try OpenSSLFixtures.run("/bin/sh", ["-c", command], in: fixtures.directory), as: UTF8.self)
        let hex = (text.split(separator: "\n").last.map(String.init) ?? "").filter(\.isHexDigit)
        return try #require(Data(hex: hex))
    }

    @Test func addingByRefDerivesApplesAttributes() throws {
        try keychain.run { () throws in
            let leaf = try certificate("leaf")
            let (status, result) = addReturning(item([kSecValueRef: leaf, kSecReturnAttributes: true]))
            #expect(status == errSecSuccess)
            let added = try #require(result as? [String: Any])
            let stored = try #require(attributes(of: item([kSecClass: kSecClassCertificate])))
            for attributes in [added, stored] {
                #expect((attributes[kSecAttrCertificateType as String] as? NSNumber)?.intValue == 3, "v3 is CSSM_CERT_X_509v3 = 3")
                #expect((attributes[kSecAttrCertificateEncoding as String] as? NSNumber)?.intValue == 3, "CSSM_CERT_ENCODING_DER")
                #expect(attributes[kSecAttrIssuer as String] as? Data == SecCertificateCopyNormalizedIssuerSequence(leaf) as Data?)
                #expect(attributes[kSecAttrSubject as String] as? Data == SecCertificateCopyNormalizedSubjectSequence(leaf) as Data?)
                #expect(attributes[kSecAttrSerialNumber as String] as? Data == SecCertificateCopySerialNumberData(leaf, nil) as Data?)
                #expect(attributes[kSecAttrLabel as String] as? String == "leaf.example.com", "the subject summary, on add")
            }
            // skid and pkhh, against openssl's own reading of the certificate.
            let skid = try hexFromOpenSSL("openssl x509 -in leaf.pem -noout -ext subjectKeyIdentifier")
            #expect(stored[kSecAttrSubjectKeyID as String] as? Data == skid)
            let pkhh = try hexFromOpenSSL("openssl x509 -in leaf.pem -pubkey -noout | openssl pkey -pubin -outform DER | tail -c 65 | openssl dgst -sha1 -r | cut -d' ' -f1")
            #expect(stored[kSecAttrPublicKeyHash as String] as? Data == pkhh)
            #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String, "certificates default to Always")
            #expect(secret(of: item([kSecClass: kSecClassCertificate])) == (SecCertificateCopyData(leaf) as Data))
        }
    }

    @Test func aLabelGivenByTheCallerWins() throws {
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: try certificate("leaf"), kSecAttrLabel: "mine"])) == errSecSuccess)
            #expect(attributes(of: item([kSecClass: kSecClassCertificate]))?[kSecAttrLabel as String] as? String == "mine")
        }
    }

    @Test func thePrimaryKeyIsTypeIssuerAndSerial() throws {
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: try certificate("leaf")])) == errSecSuccess)
            #expect(add(item([kSecValueRef: try certificate("leaf"), kSecAttrLabel: "another label"])) == errSecDuplicateItem)
            #expect(add(item([kSecValueRef: try certificate("other")])) == errSecSuccess, "same issuer, other serial")
            #expect(add(item([kSecValueRef: try certificate("ca")])) == errSecSuccess)
            #expect(matchCount(item([kSecClass: kSecClassCertificate])) == 3)
        }
    }

    @Test func certificatesAddedAsDataOnlyGetNothingDerived() throws {
        // Apple parses nothing without kSecValueRef: issr and slnr stay empty, so a second
        // certificate added that way collides with the first.
        try keychain.run { () throws in
            #expect(add(item([kSecClass: kSecClassCertificate, kSecValueData: try fixtures.data("leaf.der")])) == errSecSuccess)
            #expect(add(item([kSecClass: kSecClassCertificate, kSecValueData: try fixtures.data("other.der")])) == errSecDuplicateItem)
            #expect(attributes(of: item([kSecClass: kSecClassCertificate]))?[kSecAttrIssuer as String] as? Data == Data())
        }
    }

    @Test func returnRefGivesCertificates() throws {
        try keychain.run { () throws in
            let leaf = try certificate("leaf"), other = try certificate("other")
            #expect(add(item([kSecValueRef: leaf])) == errSecSuccess)
            #expect(add(item([kSecValueRef: other])) == errSecSuccess)
            let one = copyMatching(item([kSecClass: kSecClassCertificate, kSecValueRef: leaf, kSecReturnRef: true]))
            #expect(one.status == errSecSuccess)
            #expect(one.result as? SecCertificate == leaf, "a search by ref finds exactly that certificate")
            let all = copyMatching(item([kSecClass: kSecClassCertificate, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll]))
            #expect(Set(try #require(all.result as? [SecCertificate])) == [leaf, other])
            let both = copyMatching(item([kSecClass: kSecClassCertificate, kSecValueRef: other, kSecReturnRef: true, kSecReturnAttributes: true]))
            let dictionary = try #require(both.result as? [String: Any])
            #expect(dictionary[kSecValueRef as String] as? SecCertificate == other)
            #expect(dictionary[kSecClass as String] as? String == kSecClassCertificate as String)
        }
    }

    @Test func aRawDERIssuerFindsTheCertificate() throws {
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: try certificate("leaf")])) == errSecSuccess)
            // The issuer as it is in the certificate (a whole Name): the client normalises it.
            let caSubjectDER = try issuerNameDER(of: "leaf")
            #expect(exists(item([kSecClass: kSecClassCertificate, kSecAttrIssuer: caSubjectDER])) == errSecSuccess)
            #expect(exists(item([kSecClass: kSecClassCertificate, kSecAttrIssuer: SecCertificateCopyNormalizedIssuerSequence(try certificate("leaf"))!])) == errSecSuccess)
            #expect(exists(item([kSecClass: kSecClassCertificate, kSecAttrIssuer: try issuerNameDER(of: "ca").dropLast()])) == errSecItemNotFound)
        }
    }

    /// The issuer Name's DER of a certificate, cut out of it at the offsets openssl's asn1parse
    /// reports (the fourth depth-2 element of the TBSCertificate: version, serial, algorithm, issuer).
    func issuerNameDER(of name: String) throws -> Data {
        let listing = String(decoding: try fixtures.openssl(["asn1parse", "-in", "\(name).der", "-inform", "DER"]), as: UTF8.self)
        let depth2 = listing.split(separator: "\n").filter { $0.contains("d=2") }.map(String.init)
        guard depth2.count > 3 else { throw OpenSSLFixtures.CommandFailed(description: "unexpected asn1parse output: \(listing)") }
        let line = depth2[3]
        func number(after marker: String) -> Int? {
            guard let range = line.range(of: marker) else { return nil }
            return Int(line[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber })
        }
        let offset = Int(line.prefix { $0.isNumber || $0 == " " }.trimmingCharacters(in: .whitespaces))
        guard let offset, let header = number(after: "hl="), let length = number(after: " l=") else {
            throw OpenSSLFixtures.CommandFailed(description: "unexpected asn1parse line: \(line)")
        }
        return try fixtures.data("\(name).der").subdata(in: offset..<(offset + header + length))
    }

    @Test func aCertificateAndItsPrivateKeyFormAnIdentity() throws {
        let identity = try identity("leaf")
        try keychain.run { () throws in
            var key: SecKey?
            #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
            #expect(add(item([kSecValueRef: try certificate("leaf")])) == errSecSuccess)
            #expect(exists(item([kSecClass: kSecClassIdentity])) == errSecItemNotFound, "no key yet")
            #expect(add(item([kSecValueRef: try #require(key), kSecAttrApplicationTag: Data("leaf-key".utf8)])) == errSecSuccess)
            #expect(add(item([kSecValueRef: try certificate("other")])) == errSecSuccess, "a certificate without its key")

            let found = copyMatching(item([kSecClass: kSecClassIdentity, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll]))
            #expect(found.status == errSecSuccess)
            let identities = try #require(found.result as? [SecIdentity])
            #expect(identities == [identity], "only the certificate with a private key is an identity")

            let attributes = try #require(copyMatching(item([kSecClass: kSecClassIdentity, kSecReturnAttributes: true, kSecReturnPersistentRef: true])).result as? [String: Any])
            #expect(attributes["certdata"] as? Data == (SecCertificateCopyData(try certificate("leaf")) as Data))
            #expect(attributes[kSecAttrLabel as String] as? String == "leaf.example.com", "the certificate's label wins")
            #expect(attributes[kSecAttrApplicationTag as String] as? Data == Data("leaf-key".utf8), "the key's own attributes are there")
            let reference = try #require(attributes[kSecValuePersistentRef as String] as? Data)
            #expect(reference.prefix(4) == Data("idnt".utf8))
            #expect(copyMatching(item([kSecValuePersistentRef: reference, kSecReturnRef: true])).result as? SecIdentity == identity)

            var made: SecIdentity?
            #expect(SecIdentityCreateWithCertificate(nil, try certificate("leaf"), &made) == errSecSuccess)
            #expect(made == identity)
            #expect(SecIdentityCreateWithCertificate(nil, try certificate("other"), &made) == errSecItemNotFound)
            // Searching by the identity itself.
            #expect(copyMatching(item([kSecValueRef: identity, kSecReturnRef: true])).result as? SecIdentity == identity)
        }
    }

    @Test func identitiesAreAddedAndDeletedAsTwoItems() throws {
        let identity = try identity("leaf")
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: identity])) == errSecSuccess)
            #expect(matchCount(item([kSecClass: kSecClassCertificate])) == 1)
            #expect(matchCount(item([kSecClass: kSecClassKey])) == 1)
            #expect(add(item([kSecValueRef: identity])) == errSecDuplicateItem, "both halves already there")
            #expect(exists(item([kSecClass: kSecClassIdentity])) == errSecSuccess)
            #expect(delete(item([kSecValueRef: identity])) == errSecSuccess)
            #expect(exists(item([kSecClass: kSecClassCertificate])) == errSecItemNotFound)
            #expect(exists(item([kSecClass: kSecClassKey])) == errSecItemNotFound)

            let (status, reference) = addReturning(item([kSecValueRef: identity, kSecReturnPersistentRef: true]))
            #expect(status == errSecSuccess)
            let persistent = try #require(reference as? Data)
            #expect(persistent.prefix(4) == Data("idnt".utf8), "adding an identity returns an identity reference")
            #expect(copyMatching(item([kSecValuePersistentRef: persistent, kSecReturnRef: true])).result as? SecIdentity == identity)
            #expect(delete(item([kSecClass: kSecClassIdentity])) == errSecSuccess)
            #expect(exists(item([kSecClass: kSecClassIdentity])) == errSecItemNotFound)
            #expect(delete(item([kSecClass: kSecClassIdentity])) == errSecItemNotFound)
        }
    }

    @Test func updatingAnIdentityUpdatesBothItems() throws {
        let identity = try identity("leaf")
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: identity])) == errSecSuccess)
            #expect(update(item([kSecClass: kSecClassIdentity]), item([kSecAttrLabel: "renamed"])) == errSecSuccess)
            #expect(attributes(of: item([kSecClass: kSecClassCertificate]))?[kSecAttrLabel as String] as? String == "renamed")
            #expect(attributes(of: item([kSecClass: kSecClassKey]))?[kSecAttrLabel as String] as? String == "renamed")
            #expect(update(item([kSecValueRef: identity]), item([kSecAttrLabel: "by ref"])) == errSecSuccess)
            #expect(attributes(of: item([kSecClass: kSecClassKey]))?[kSecAttrLabel as String] as? String == "by ref")
            // An identity whose key is not the certificate's cannot be made.
            var other: SecIdentity?
            #expect(SecIdentityCreateWithCertificate(nil, try certificate("other"), &other) == errSecItemNotFound)
            #expect(other == nil)
        }
    }

    @Test func policyTrustAndDateSearchKeysFilterCertificates() throws {
        let bundle = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let first = try #require(bundle.components(separatedBy: "-----END CERTIFICATE-----").first)
        let base64 = first.components(separatedBy: "-----BEGIN CERTIFICATE-----").last!.filter { !$0.isWhitespace }
        let rootDER = try #require(Data(base64Encoded: base64))
        let systemRoot = try #require(SecCertificateCreateWithData(nil, rootDER as CFData))
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: try certificate("leaf")])) == errSecSuccess)
            #expect(add(item([kSecValueRef: systemRoot])) == errSecSuccess)
            let all = item([kSecClass: kSecClassCertificate, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll])
            let trusted = copyMatching(all.with([kSecMatchTrustedOnly: true]))
            #expect(trusted.result as? [SecCertificate] == [systemRoot], "our test CA is no system anchor")
            let basic = copyMatching(all.with([kSecMatchPolicy: SecPolicyCreateBasicX509()]))
            #expect(basic.result as? [SecCertificate] == [systemRoot])
            let later = copyMatching(all.with([kSecMatchValidOnDate: Date().addingTimeInterval(365 * 86_400)]))
            #expect(!((later.result as? [SecCertificate]) ?? []).contains(try certificate("leaf")), "the leaf is valid for 30 days")
            let now = copyMatching(all.with([kSecMatchValidOnDate: NSNull()]))
            #expect(((now.result as? [SecCertificate]) ?? []).contains(try certificate("leaf")))
            #expect(copyMatching(item([kSecClass: kSecClassGenericPassword, kSecMatchPolicy: SecPolicyCreateBasicX509()])).status == errSecUnimplemented)
            #expect(copyMatching(item([kSecClass: kSecClassCertificate, kSecMatchPolicy: "basic"])).status == errSecParam)
        }
    }

    @Test func issuersSearchKeyKeepsCertificatesIssuedByThoseNames() throws {
        try fixtures.makeCA("ca2", subject: "/CN=Second Test CA/O=Swift Keychain Tests")
        try fixtures.makeLeaf("leaf2", subject: "/CN=leaf2.example.com", issuer: "ca2")
        let leaf = try certificate("leaf")
        let other = try certificate("leaf2")
        try keychain.run { () throws in
            #expect(add(item([kSecValueRef: leaf])) == errSecSuccess)
            #expect(add(item([kSecValueRef: other])) == errSecSuccess)
            let all = item([kSecClass: kSecClassCertificate, kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll])
            let leafIssuer = try #require(SecCertificateCopyNormalizedIssuerSequence(leaf)) as Data
            let otherIssuer = try #require(SecCertificateCopyNormalizedIssuerSequence(other)) as Data
            try #require(leafIssuer != otherIssuer, "the fixtures' two certificates have different issuers")
            #expect(copyMatching(all.with([kSecMatchIssuers: [leafIssuer]])).result as? [SecCertificate] == [leaf])
            #expect(copyMatching(all.with([kSecMatchIssuers: [otherIssuer]])).result as? [SecCertificate] == [other])
            let both = copyMatching(all.with([kSecMatchIssuers: [leafIssuer, otherIssuer]])).result as? [SecCertificate]
            #expect(Set(both ?? []) == [leaf, other])
            // A whole DER Name (SEQUENCE around the contents) is normalised before it is compared.
            try #require(leafIssuer.count < 128)
            let wholeName = Data([0x30, UInt8(leafIssuer.count)]) + leafIssuer
            #expect(copyMatching(all.with([kSecMatchIssuers: [wholeName]])).result as? [SecCertificate] == [leaf])
            #expect(copyMatching(all.with([kSecMatchIssuers: [Data([0x31, 0x00])]])).status == errSecItemNotFound)
            #expect(copyMatching(item([kSecClass: kSecClassGenericPassword, kSecMatchIssuers: [leafIssuer]])).status == errSecUnimplemented)
        }
    }

    @Test func certificateKeysAndTrustKeysAreTheCertificatesPublicKey() throws {
        let identity = try identity("leaf")
        var key: SecKey?
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        let publicKey = try #require(SecCertificateCopyKey(try certificate("leaf")))
        #expect(publicKey == SecKeyCopyPublicKey(try #require(key)))
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(try certificate("leaf"), SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
        #expect(SecTrustCopyKey(try #require(trust)) == publicKey)
        // The key's application label is the certificate's pkhh: the identity join.
        let attributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
        let stored = try keychain.run { () -> [String: Any]? in
            _ = add(item([kSecValueRef: try certificate("leaf")]))
            return RulesCertificateItemTestsSupport.attributes(item([kSecClass: kSecClassCertificate]))
        }
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == stored?[kSecAttrPublicKeyHash as String] as? Data)
    }
}

enum RulesCertificateItemTestsSupport {
    static func attributes(_ query: Item) -> [String: Any]? { KeychainServicesTests.attributes(of: query) }
}
