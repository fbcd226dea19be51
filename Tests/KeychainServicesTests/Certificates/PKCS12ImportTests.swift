import Foundation
import KeychainServices
import Testing

/// SecPKCS12Import on files `openssl pkcs12 -export` wrote: OpenSSL 3's default (PBES2 with
/// PBKDF2-HMAC-SHA-256 and AES-256-CBC, MAC HMAC-SHA-256), other MACs and ciphers it can be asked
/// for, the legacy RC2/3DES form, wrong passphrases and damaged files.
@Suite struct PKCS12ImportTests {
    let fixtures: OpenSSLFixtures

    init() throws {
        fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("ca", subject: "/CN=P12 Test CA")
        try fixtures.makeLeaf("leaf", subject: "/CN=p12 leaf", issuer: "ca")
        try fixtures.makeLeaf("rsaleaf", subject: "/CN=p12 rsa leaf", issuer: "ca", keyType: .rsa)
    }

    func importFile(_ name: String, passphrase: Any?) throws -> (OSStatus, [[String: Any]]) {
        var items: CFArray?
        var options: [String: Any] = [:]
        if let passphrase { options[kSecImportExportPassphrase as String] = passphrase }
        let status = SecPKCS12Import(try fixtures.data(name) as CFData, options as CFDictionary, &items)
        return (status, (items as? [[String: Any]]) ?? [])
    }

    /// The identity's private key signs, and openssl verifies the signature with the certificate.
    func expectKeyMatchesCertificate(_ identity: SecIdentity, certificate name: String, rsa: Bool = false) throws {
        var key: SecKey?
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        let privateKey = try #require(key)
        let message = Data("signed by the imported key".utf8)
        let algorithm: SecKeyAlgorithm = rsa ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256
        var error: Unmanaged<CFError>?
        let signature = try #require(SecKeyCreateSignature(privateKey, algorithm, message as CFData, &error) as Data?)
        try message.write(to: fixtures.directory.appendingPathComponent("message"))
        try signature.write(to: fixtures.directory.appendingPathComponent("signature"))
        try fixtures.openssl(["x509", "-in", "\(name).pem", "-pubkey", "-noout", "-out", "\(name).pub"])
        let verified = try fixtures.printed(["dgst", "-sha256", "-verify", "\(name).pub", "-signature", "signature", "message"])
        #expect(verified == "Verified OK")
    }

    @Test func openSSL3DefaultFileImportsAsAnIdentityWithItsChain() throws {
        try fixtures.makePKCS12("default.p12", key: "leaf", chain: ["ca"], password: "correct horse", friendlyName: "My Identity")
        // What openssl wrote: PBES2/AES-256-CBC and a SHA-256 MAC (so the test covers that path).
        let info = String(decoding: try OpenSSLFixtures.run("/bin/sh", ["-c", "openssl pkcs12 -in default.p12 -info -noout -passin 'pass:correct horse' 2>&1"], in: fixtures.directory), as: UTF8.self)
        #expect(info.contains("MAC: sha256"), "\(info)")
        #expect(info.contains("PBES2, PBKDF2, AES-256-CBC"), "\(info)")
        let (status, items) = try importFile("default.p12", passphrase: "correct horse")
        #expect(status == errSecSuccess)
        #expect(items.count == 1)
        let item = try #require(items.first)
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        #expect(CFGetTypeID(identity) == SecIdentityGetTypeID())
        var certificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        let leaf = try #require(SecCertificateCreateWithData(nil, try fixtures.data("leaf.der") as CFData))
        let ca = try #require(SecCertificateCreateWithData(nil, try fixtures.data("ca.der") as CFData))
        #expect(certificate == leaf)
        #expect(item[kSecImportItemCertChain as String] as? [SecCertificate] == [leaf, ca])
        #expect(item[kSecImportItemLabel as String] as? String == "My Identity")
        #expect((item[kSecImportItemKeyID as String] as? Data)?.count == 20, "openssl's localKeyID is the certificate's SHA-1")
        let trust = try #require(item[kSecImportItemTrust as String] as? SecTrust)
        #expect(SecTrustSetAnchorCertificates(trust, [ca] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(trust, nil))
        try expectKeyMatchesCertificate(identity, certificate: "leaf")
    }

    @Test func rsaKeysAndOtherMACsAndCiphersImport() throws {
        try fixtures.makePKCS12("rsa.p12", key: "rsaleaf", password: "pw", extra: ["-macalg", "sha512", "-keypbe", "AES-128-CBC", "-certpbe", "AES-192-CBC", "-iter", "5000"])
        let (status, items) = try importFile("rsa.p12", passphrase: "pw")
        #expect(status == errSecSuccess)
        let identity = try #require(items.first?[kSecImportItemIdentity as String] as? SecIdentity)
        try expectKeyMatchesCertificate(identity, certificate: "rsaleaf", rsa: true)
        try fixtures.makePKCS12("sha1mac.p12", key: "leaf", password: "pw", extra: ["-macalg", "sha1"])
        #expect(try importFile("sha1mac.p12", passphrase: "pw").0 == errSecSuccess)
    }

    @Test func emptyAndUnicodePassphrases() throws {
        try fixtures.makePKCS12("empty.p12", key: "leaf", password: "")
        #expect(try importFile("empty.p12", passphrase: "").0 == errSecSuccess)
        #expect(try importFile("empty.p12", passphrase: nil).0 == errSecSuccess, "no passphrase option reads as the empty one")
        try fixtures.makePKCS12("unicode.p12", key: "leaf", password: "pässwörd✓")
        #expect(try importFile("unicode.p12", passphrase: "pässwörd✓").0 == errSecSuccess)
        #expect(try importFile("unicode.p12", passphrase: "passwort").0 == errSecAuthFailed)
    }

    @Test func aWrongPassphraseIsErrSecAuthFailed() throws {
        try fixtures.makePKCS12("default.p12", key: "leaf", password: "right")
        let (status, items) = try importFile("default.p12", passphrase: "wrong")
        #expect(status == errSecAuthFailed)
        #expect(items.isEmpty)
        #expect(try importFile("default.p12", passphrase: 42).0 == errSecParam)
    }

    @Test func aFileWithoutAMACStillRefusesAWrongPassphrase() throws {
        try fixtures.makePKCS12("nomac.p12", key: "leaf", password: "right", extra: ["-nomac"])
        #expect(try importFile("nomac.p12", passphrase: "right").0 == errSecSuccess)
        #expect(try importFile("nomac.p12", passphrase: "wrong").0 == errSecAuthFailed)
    }

    /// Without a MAC, a wrong passphrase shows only when what it decrypts does not read. About one
    /// wrong passphrase in 255 decrypts to noise with valid CBC padding, and that noise must still
    /// be errSecAuthFailed, not errSecDecode. 1,200 tries include such a one with about 99 %
    /// probability (one iteration per key, so they are quick).
    @Test func aFileWithoutAMACRefusesEveryWrongPassphrase() throws {
        try fixtures.makePKCS12("nomac-fast.p12", key: "leaf", password: "right", extra: ["-iter", "1", "-nomac"])
        #expect(try importFile("nomac-fast.p12", passphrase: "right").0 == errSecSuccess)
        let file = try fixtures.data("nomac-fast.p12")
        var statuses: [OSStatus: Int] = [:]
        for attempt in 0..<1_200 {
            var items: CFArray?
            let status = SecPKCS12Import(file as CFData, [kSecImportExportPassphrase: "wrong \(attempt)"] as CFDictionary, &items)
            statuses[status, default: 0] += 1
        }
        #expect(statuses == [errSecAuthFailed: 1_200])
    }

    @Test func damagedFilesAreErrSecDecode() throws {
        try fixtures.makePKCS12("default.p12", key: "leaf", password: "pw")
        let whole = try fixtures.data("default.p12")
        for cut in [0, 1, 10, whole.count / 2, whole.count - 1] {
            var items: CFArray?
            let status = SecPKCS12Import(whole.prefix(cut) as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items)
            #expect(status == errSecDecode, "truncated to \(cut) bytes")
        }
        var items: CFArray?
        #expect(SecPKCS12Import(Data("not pkcs12".utf8) as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items) == errSecDecode)
        // A flipped byte inside the MAC-covered contents: the MAC no longer verifies, which
        // PKCS#12 cannot tell from a wrong passphrase.
        var flipped = whole
        flipped[whole.count / 2] ^= 0xFF
        let status = SecPKCS12Import(flipped as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items)
        #expect(status == errSecAuthFailed || status == errSecDecode)
    }

    @Test func legacyRC2And3DESFilesSayUnimplementedOnlyWithTheRightPassphrase() throws {
        try fixtures.makePKCS12("legacy.p12", key: "leaf", password: "pw", extra: ["-legacy"])
        let info = String(decoding: try OpenSSLFixtures.run("/bin/sh", ["-c", "openssl pkcs12 -in legacy.p12 -info -noout -passin pass:pw -legacy 2>&1"], in: fixtures.directory), as: UTF8.self)
        #expect(info.contains("RC2") || info.contains("3DES") || info.contains("pbeWithSHA1And"), "the file really is legacy: \(info)")
        #expect(try importFile("legacy.p12", passphrase: "pw").0 == errSecUnimplemented)
        #expect(try importFile("legacy.p12", passphrase: "wrong").0 == errSecAuthFailed, "the SHA-1 MAC is still verified")
    }

    @Test func certificatesWithoutKeysAreOnlyChainMembers() throws {
        try fixtures.openssl(["pkcs12", "-export", "-nokeys", "-in", "ca.pem", "-out", "certs.p12", "-passout", "pass:pw"])
        let (status, items) = try importFile("certs.p12", passphrase: "pw")
        #expect(status == errSecSuccess)
        #expect(items.isEmpty, "no key, no identity")
    }
}
