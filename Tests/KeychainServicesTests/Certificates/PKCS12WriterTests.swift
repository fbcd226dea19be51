import Foundation
@testable import KeychainServices
import Testing

/// The exporters' encodings read back by the real openssl and by our own SecPKCS12Import:
/// PKCS#12 (PBES2 AES-256-CBC, PBKDF2-HMAC-SHA-256, HMAC-SHA-256 MAC), encrypted PKCS#8,
/// certificates-only PKCS#7 and SEC1 EC keys.
@Suite struct PKCS12WriterTests {
    let fixtures: OpenSSLFixtures

    init() throws {
        fixtures = try OpenSSLFixtures()
        try fixtures.makeCA("ca", subject: "/CN=Writer Test CA")
        try fixtures.makeLeaf("leaf", subject: "/CN=writer leaf", issuer: "ca")
        try fixtures.makeLeaf("rsaleaf", subject: "/CN=writer rsa leaf", issuer: "ca", keyType: .rsa)
    }

    /// `name`.key as a PKCS#8 PrivateKeyInfo (DER).
    func privateKeyInfo(_ name: String) throws -> [UInt8] {
        try fixtures.openssl(["pkcs8", "-topk8", "-nocrypt", "-in", "\(name).key", "-outform", "DER", "-out", "\(name).p8.der"])
        return Array(try fixtures.data("\(name).p8.der"))
    }

    func publicKeyText(_ arguments: [String]) throws -> String {
        String(decoding: try fixtures.openssl(["pkey"] + arguments + ["-pubout"]), as: UTF8.self)
    }

    func p12(key: String, chain: [String], password: String, iterations: Int = PasswordBasedEncryption.defaultIterations) throws -> [UInt8] {
        var writer = PKCS12Writer()
        writer.iterations = iterations
        let id: [UInt8] = [0xA1, 0xB2, 0xC3]
        writer.add(certificate: Array(try fixtures.data("\(key).der")), .init(friendlyName: "Writer identity é", localKeyID: id))
        for name in chain { writer.add(certificate: Array(try fixtures.data("\(name).der"))) }
        writer.add(privateKeyInfo: try privateKeyInfo(key), .init(friendlyName: "Writer identity é", localKeyID: id))
        return try writer.write(password: password)
    }

    @Test("openssl pkcs12 reads the file with the passphrase (the same key and both certificates) and refuses a wrong one",
          arguments: ["leaf", "rsaleaf"])
    func opensslReads(key: String) throws {
        try Data(try p12(key: key, chain: ["ca"], password: "correct horse")).write(to: fixtures.directory.appendingPathComponent("out.p12"))
        // openssl prints a BMPString's characters below 256 as single bytes (Latin-1).
        let output = try fixtures.openssl(["pkcs12", "-in", "out.p12", "-passin", "pass:correct horse", "-nodes"])
        let dump = try #require(String(data: output, encoding: .isoLatin1))
        #expect(dump.components(separatedBy: "BEGIN CERTIFICATE").count == 3)
        #expect(dump.contains("BEGIN PRIVATE KEY"))
        #expect(dump.components(separatedBy: "friendlyName: Writer identity é\n").count == 3, "both bags carry the name")
        try fixtures.write("dump.pem", dump)
        #expect(try publicKeyText(["-in", "dump.pem"]) == publicKeyText(["-in", "\(key).key"]))
        #expect(throws: OpenSSLFixtures.CommandFailed.self) {
            try fixtures.openssl(["pkcs12", "-in", "out.p12", "-passin", "pass:wrong horse", "-nodes"])
        }
    }

    @Test("openssl says which algorithms protect the file: PBES2, PBKDF2 with HMAC-SHA-256, AES-256-CBC, a SHA-256 MAC")
    func algorithms() throws {
        try Data(try p12(key: "leaf", chain: [], password: "pw")).write(to: fixtures.directory.appendingPathComponent("alg.p12"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["pkcs12", "-in", fixtures.path("alg.p12"), "-passin", "pass:pw", "-info", "-noout"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("MAC: sha256"), "\(text)")
        #expect(text.contains("PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"), "\(text)")
    }

    @Test("SecPKCS12Import reads the file back: the identity's certificate, chain, label, key ID and a key that signs for the certificate")
    func roundTrip() throws {
        let data = Data(try p12(key: "leaf", chain: ["ca"], password: "pässwörd"))
        var items: CFArray?
        #expect(SecPKCS12Import(data as CFData, [kSecImportExportPassphrase as String: "pässwörd"] as CFDictionary, &items) == errSecSuccess)
        let item = try #require((items as? [[String: Any]])?.first)
        #expect(item[kSecImportItemLabel as String] as? String == "Writer identity é")
        #expect(item[kSecImportItemKeyID as String] as? Data == Data([0xA1, 0xB2, 0xC3]))
        let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
        #expect(chain.map { SecCertificateCopyData($0) as Data } == [try fixtures.data("leaf.der"), try fixtures.data("ca.der")])
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        var key: SecKey?
        #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
        let message = Data("exported and imported".utf8)
        var error: Unmanaged<CFError>?
        let privateKey = try #require(key)
        let signature = try #require(SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, message as CFData, &error))
        let publicKey = try #require(SecCertificateCopyKey(chain[0]))
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message as CFData, signature, &error))
        var none: CFArray?
        #expect(SecPKCS12Import(data as CFData, [kSecImportExportPassphrase as String: "password"] as CFDictionary, &none) == errSecAuthFailed)
    }

    @Test("Round trip over many passphrases (empty, long, non-ASCII, random): the writer's output always reads back, and only with its own passphrase")
    func roundTripPassphrases() throws {
        var passphrases = ["", "a", String(repeating: "long passphrase ", count: 20), "日本語のパスワード", "emoji 🔑 key"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<12 {
            let scalars = (0..<Int.random(in: 0...24, using: &generator)).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0x20...0x2FFF, using: &generator)) }
            passphrases.append(String(String.UnicodeScalarView(scalars)))
        }
        for passphrase in passphrases {
            let data = Data(try p12(key: "leaf", chain: [], password: passphrase, iterations: 1))
            let contents = try PKCS12Parser.parse(data, password: passphrase)
            #expect(contents.keys.count == 1 && contents.certificates.count == 1)
            #expect(contents.keys.first?.contents == Data(try privateKeyInfo("leaf")))
            #expect(throws: PKCS12Error.authentication) { try PKCS12Parser.parse(data, password: passphrase + "x") }
        }
    }

    @Test("Whatever the writer is given (arbitrary bytes as certificate and key, any friendly name and key ID, empty ones too) reads back unchanged, the fuzzer's property")
    func roundTripArbitraryParts() throws {
        var generator = SystemRandomNumberGenerator()
        func bytes(_ limit: Int) -> [UInt8] { (0..<Int.random(in: 0...limit, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var names = ["", "\u{FEFF}starts with a byte-order mark", "𝄞 outside the BMP", "nul\u{0}inside"]
        for _ in 0..<16 { names.append(String(decoding: bytes(40), as: UTF8.self)) }
        for name in names {
            let certificate = bytes(300), keyID = bytes(24)
            let key = DERWriting.sequence(DERWriting.octetString(bytes(300)))
            var writer = PKCS12Writer()
            writer.iterations = 1
            writer.add(certificate: certificate, .init(friendlyName: name, localKeyID: keyID))
            writer.add(privateKeyInfo: key, .init(friendlyName: name, localKeyID: keyID))
            let passphrase = String(decoding: bytes(20), as: UTF8.self)
            let contents = try PKCS12Parser.parse(Data(try writer.write(password: passphrase)), password: passphrase)
            #expect(contents.certificates.map(\.contents) == [Data(certificate)])
            #expect(contents.keys.map(\.contents) == [Data(key)])
            for bag in contents.certificates + contents.keys {
                #expect(bag.friendlyName == name && bag.localKeyID == Data(keyID), "\(name.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test("A file of certificates only, and one of a key only, are written and read back")
    func partialFiles() throws {
        var certificates = PKCS12Writer()
        certificates.add(certificate: Array(try fixtures.data("ca.der")))
        let onlyCertificates = try PKCS12Parser.parse(Data(try certificates.write(password: "x")), password: "x")
        #expect(onlyCertificates.certificates.count == 1 && onlyCertificates.keys.isEmpty)
        var keys = PKCS12Writer()
        keys.add(privateKeyInfo: try privateKeyInfo("rsaleaf"))
        let onlyKeys = try PKCS12Parser.parse(Data(try keys.write(password: "x")), password: "x")
        #expect(onlyKeys.keys.count == 1 && onlyKeys.certificates.isEmpty)
    }

    @Test("Encrypted PKCS#8 is read by openssl pkey with the passphrase and refused without it", arguments: ["leaf", "rsaleaf"])
    func encryptedPKCS8(key: String) throws {
        let der = try PasswordBasedEncryption.encryptedPrivateKeyInfo(try privateKeyInfo(key), password: "p8 secret")
        try Data(der).write(to: fixtures.directory.appendingPathComponent("\(key).enc.der"))
        #expect(try publicKeyText(["-inform", "DER", "-in", "\(key).enc.der", "-passin", "pass:p8 secret"]) == publicKeyText(["-in", "\(key).key"]))
        #expect(throws: OpenSSLFixtures.CommandFailed.self) {
            try fixtures.openssl(["pkey", "-inform", "DER", "-in", "\(key).enc.der", "-passin", "pass:other", "-noout"])
        }
    }

    @Test("A certificates-only PKCS#7 lists its certificates, in order, to openssl pkcs7 -print_certs")
    func pkcs7() throws {
        let der = PKCS7CertificateBundle.encode([Array(try fixtures.data("leaf.der")), Array(try fixtures.data("ca.der"))])
        try Data(der).write(to: fixtures.directory.appendingPathComponent("bundle.p7b"))
        let printed = String(decoding: try fixtures.openssl(["pkcs7", "-inform", "DER", "-in", "bundle.p7b", "-print_certs", "-noout"]), as: UTF8.self)
        let subjects = printed.split(separator: "\n").filter { $0.hasPrefix("subject=") }
        #expect(subjects == ["subject=CN = writer leaf", "subject=CN = Writer Test CA"], "\(printed)")
    }

    @Test("SEC1 ECPrivateKey from the X9.63 representation is the key openssl made")
    func sec1() throws {
        for (curve, bits) in [("P-256", 256), ("P-384", 384), ("P-521", 521)] {
            try fixtures.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", "ec\(bits).pem"])
            try fixtures.openssl(["pkey", "-in", "ec\(bits).pem", "-outform", "DER", "-out", "ec\(bits).der"])
            let key = try #require(PKCS8PrivateKey.key(try fixtures.data("ec\(bits).der")))
            var error: Unmanaged<CFError>?
            let external = try #require(SecKeyCopyExternalRepresentation(key, &error) as Data?)
            let sec1 = try #require(ECPrivateKeyEncoding.sec1(x963: Array(external), bits: bits))
            try Data(sec1).write(to: fixtures.directory.appendingPathComponent("ec\(bits).sec1"))
            #expect(try publicKeyText(["-inform", "DER", "-in", "ec\(bits).sec1"]) == publicKeyText(["-in", "ec\(bits).pem"]))
        }
        #expect(ECPrivateKeyEncoding.sec1(x963: [4, 1, 2], bits: 256) == nil)
        #expect(ECPrivateKeyEncoding.sec1(x963: Array(repeating: 4, count: 97), bits: 224) == nil)
    }
}
