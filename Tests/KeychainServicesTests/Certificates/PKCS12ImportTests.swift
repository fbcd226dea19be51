import Foundation
import KeychainServices
import Testing

/// SecPKCS12Import on files `openssl pkcs12 -export` wrote: OpenSSL 3's default (PBES2 with
/// PBKDF2-HMAC-SHA-256 and AES-256-CBC, MAC HMAC-SHA-256), other MACs and ciphers it can be asked
/// for, the legacy RC2/3DES forms of older tools, wrong passphrases and damaged files.
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

    /// What `openssl pkcs12 -info` says a file's encryption is (so that each test proves which
    /// scheme it covers).
    func encryptionInfo(_ name: String, password: String) throws -> String {
        String(decoding: try OpenSSLFixtures.run("/bin/sh", ["-c", "openssl pkcs12 -in \(name) -info -noout -passin pass:\(password) -legacy 2>&1"],
                                                 in: fixtures.directory), as: UTF8.self)
    }

    /// An imported legacy file gives the identity, its certificate and chain, and a key that signs
    /// what openssl verifies.
    func expectLegacyImport(_ name: String, password: String, key: String, rsa: Bool = false) throws {
        let (status, items) = try importFile(name, passphrase: password)
        #expect(status == errSecSuccess, "\(name)")
        #expect(items.count == 1)
        let item = try #require(items.first)
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        var certificate: SecCertificate?
        #expect(SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess)
        let expected = try #require(SecCertificateCreateWithData(nil, try fixtures.data("\(key).der") as CFData))
        let ca = try #require(SecCertificateCreateWithData(nil, try fixtures.data("ca.der") as CFData))
        #expect(certificate == expected)
        #expect(item[kSecImportItemCertChain as String] as? [SecCertificate] == [expected, ca])
        try expectKeyMatchesCertificate(identity, certificate: key, rsa: rsa)
    }

    @Test func openSSLLegacyFilesImport() throws {
        // OpenSSL 3's -legacy: certificates in RC2-40, the key in three-key triple DES, SHA-1 MAC.
        try fixtures.makePKCS12("legacy.p12", key: "leaf", chain: ["ca"], password: "pw", extra: ["-legacy"])
        let info = try encryptionInfo("legacy.p12", password: "pw")
        #expect(info.contains("pbeWithSHA1And40BitRC2-CBC") && info.contains("pbeWithSHA1And3-KeyTripleDES-CBC"), "\(info)")
        try expectLegacyImport("legacy.p12", password: "pw", key: "leaf")
        // Triple DES for both, without the legacy provider, an RSA key.
        try fixtures.makePKCS12("3des.p12", key: "rsaleaf", chain: ["ca"], password: "pässwörd", extra: ["-certpbe", "PBE-SHA1-3DES", "-keypbe", "PBE-SHA1-3DES"])
        #expect(try encryptionInfo("3des.p12", password: "pässwörd").contains("Encrypted data: pbeWithSHA1And3-KeyTripleDES-CBC"))
        try expectLegacyImport("3des.p12", password: "pässwörd", key: "rsaleaf", rsa: true)
        // RC2-40 for both, the key too.
        try fixtures.makePKCS12("rc2-40.p12", key: "leaf", chain: ["ca"], password: "pw", extra: ["-legacy", "-certpbe", "PBE-SHA1-RC2-40", "-keypbe", "PBE-SHA1-RC2-40"])
        #expect(try encryptionInfo("rc2-40.p12", password: "pw").contains("Shrouded Keybag: pbeWithSHA1And40BitRC2-CBC"))
        try expectLegacyImport("rc2-40.p12", password: "pw", key: "leaf")
        // RC2-128 for both.
        try fixtures.makePKCS12("rc2-128.p12", key: "leaf", chain: ["ca"], password: "pw", extra: ["-legacy", "-certpbe", "PBE-SHA1-RC2-128", "-keypbe", "PBE-SHA1-RC2-128"])
        #expect(try encryptionInfo("rc2-128.p12", password: "pw").contains("pbeWithSHA1And128BitRC2-CBC"))
        try expectLegacyImport("rc2-128.p12", password: "pw", key: "leaf")
        // RC4, 128-bit for the certificates and 40-bit for the key.
        try fixtures.makePKCS12("rc4.p12", key: "leaf", chain: ["ca"], password: "pw", extra: ["-legacy", "-certpbe", "PBE-SHA1-RC4-128", "-keypbe", "PBE-SHA1-RC4-40"])
        let rc4 = try encryptionInfo("rc4.p12", password: "pw")
        #expect(rc4.contains("pbeWithSHA1And128BitRC4") && rc4.contains("pbeWithSHA1And40BitRC4"), "\(rc4)")
        try expectLegacyImport("rc4.p12", password: "pw", key: "leaf")
        // An empty passphrase.
        try fixtures.makePKCS12("legacy-empty.p12", key: "leaf", chain: ["ca"], password: "", extra: ["-legacy"])
        try expectLegacyImport("legacy-empty.p12", password: "", key: "leaf")
    }

    @Test func legacyFilesWithAWrongPassphraseOrDamageAreRefusedWithApplesStatuses() throws {
        try fixtures.makePKCS12("legacy.p12", key: "leaf", password: "pw", extra: ["-legacy"])
        #expect(try importFile("legacy.p12", passphrase: "wrong").0 == errSecAuthFailed, "the SHA-1 MAC is verified")
        try fixtures.makePKCS12("nomac.p12", key: "leaf", password: "pw", extra: ["-legacy", "-nomac", "-iter", "1"])
        #expect(try importFile("nomac.p12", passphrase: "pw").0 == errSecSuccess)
        for attempt in 0..<200 {
            #expect(try importFile("nomac.p12", passphrase: "wrong \(attempt)").0 == errSecAuthFailed, "without a MAC, the padding or the contents refuse it")
        }
        let whole = try fixtures.data("legacy.p12")
        for cut in [1, 10, whole.count / 3, whole.count / 2, whole.count - 1] {
            var items: CFArray?
            let status = SecPKCS12Import(whole.prefix(cut) as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items)
            #expect(status == errSecDecode, "truncated to \(cut) bytes")
        }
        // Every third byte flipped in turn, with and without a MAC: one of Apple's statuses, never a
        // crash. (Success is possible where the flip lands in something the importer skips or does
        // not check, such as a friendly name in a file without a MAC.)
        try fixtures.makePKCS12("quick.p12", key: "leaf", password: "pw", extra: ["-legacy", "-iter", "1"])
        #expect(try importFile("quick.p12", passphrase: "pw").0 == errSecSuccess)
        for file in ["quick.p12", "nomac.p12"] {
            let original = try fixtures.data(file)
            for index in stride(from: 0, to: original.count, by: 3) {
                var damaged = original
                damaged[index] ^= 0x5A
                var items: CFArray?
                let status = SecPKCS12Import(damaged as CFData, [kSecImportExportPassphrase: "pw"] as CFDictionary, &items)
                #expect([errSecSuccess, errSecDecode, errSecAuthFailed].contains(status), "\(file) byte \(index): \(status)")
            }
        }
    }

    /// Apple's importer lists two-key triple DES as unsupported (`pkcsOidInfos` in p12import.c),
    /// so its files are errSecDecode there, and here.
    @Test func twoKeyTripleDESIsRefusedAsApplesImporterRefusesIt() throws {
        try fixtures.makePKCS12("2des.p12", key: "leaf", password: "pw", extra: ["-legacy", "-certpbe", "PBE-SHA1-2DES", "-keypbe", "PBE-SHA1-2DES"])
        #expect(try encryptionInfo("2des.p12", password: "pw").contains("2-KeyTripleDES"))
        #expect(try importFile("2des.p12", passphrase: "pw").0 == errSecDecode)
        #expect(try importFile("2des.p12", passphrase: "wrong").0 == errSecAuthFailed)
    }

    @Test func certificatesWithoutKeysAreOnlyChainMembers() throws {
        try fixtures.openssl(["pkcs12", "-export", "-nokeys", "-in", "ca.pem", "-out", "certs.p12", "-passout", "pass:pw"])
        let (status, items) = try importFile("certs.p12", passphrase: "pw")
        #expect(status == errSecSuccess)
        #expect(items.isEmpty, "no key, no identity")
    }
}
