import Foundation
import Testing

/// `export` of certificates, keys and identities in `security export`'s words, every format read
/// back by the real openssl; bad requests end with a clear status and never print a secret.
@Suite struct CLIItemExportTests {
    static let errSecParamExit: Int32 = 206             // -50
    static let errSecKeyIsSensitiveExit: Int32 = 86     // -25258
    static let errSecUnsupportedFormatExit: Int32 = 88  // -25256
    static let errSecItemNotFoundExit: Int32 = 44       // -25300
    static let errSecIOExit: Int32 = 220                // -36
    static let fileExistsExit: Int32 = 208              // dupFNErr -48

    /// Runs openssl in the sandbox; its status and what it printed on standard output.
    @discardableResult
    func openssl(_ arguments: [String], in sandbox: CLISandbox) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.path(""))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// A sandbox whose keychain holds the identity of an openssl-made PKCS#12 file and its CA.
    func sandboxWithIdentity() throws -> CLISandbox {
        let sandbox = try CLISandbox()
        _ = try CLICertificateTests().makeFiles(sandbox)
        let imported = try sandbox.run(["import", sandbox.path("leaf.p12"), "-P", "secret"])
        #expect(imported.status == 0, "\(imported)")
        return sandbox
    }

    /// Runs ssh-keygen; what it printed (it fails the test when ssh-keygen fails).
    func sshKeygen(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ssh-keygen \(arguments)")
        return text
    }

    @Test("openssh2 for EC public keys: ecdsa-sha2-nistp256/384/521 lines ssh-keygen reads, the same blob it makes from the PEM")
    func opensshEC() throws {
        let sandbox = try CLISandbox()
        for bits in ["256", "384", "521"] {
            let path = sandbox.path("ec\(bits).keychain-db")
            #expect(try sandbox.run(["create-keychain", path]).status == 0)
            #expect(try sandbox.run(["create-keypair", "-a", "ec", "-s", bits, "-k", path, "ec key \(bits)"]).status == 0)
            #expect(try sandbox.run(["export", "-k", path, "-t", "pubKeys", "-f", "openssl", "-p", "-o", sandbox.path("ec\(bits).pem")]).status == 0)
            let line = try sandbox.run(["export", "-k", path, "-t", "pubKeys", "-f", "openssh2"]).stdout
            #expect(line.hasPrefix("ecdsa-sha2-nistp\(bits) ") && line.hasSuffix(" ec key \(bits)\n"), "\(line)")
            let converted = try sshKeygen(["-i", "-m", "PKCS8", "-f", sandbox.path("ec\(bits).pem")])
            #expect(line.split(separator: " ")[1] == converted.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[1])
        }
    }

    func expectNoSecret(_ result: CLIResult, _ secret: String) {
        #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "the passphrase was printed")
    }

    func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("-t identities -f pkcs12: openssl reads the file (key and certificate) with the passphrase, refuses a wrong one; import reads it back; mode 0600")
    func pkcs12() throws {
        let sandbox = try sandboxWithIdentity()
        let file = sandbox.path("out.p12")
        let exported = try sandbox.run(["export", "-t", "identities", "-f", "pkcs12", "-o", file, "-P", "Exp0rt-Pass"])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stdout == "2 items exported.\n")
        expectNoSecret(exported, "Exp0rt-Pass")
        #expect(try mode(file) == 0o600)
        let dump = try openssl(["pkcs12", "-in", file, "-passin", "pass:Exp0rt-Pass", "-nodes"], in: sandbox)
        #expect(dump.status == 0)
        #expect(dump.output.contains("BEGIN PRIVATE KEY") && dump.output.components(separatedBy: "BEGIN CERTIFICATE").count == 2)
        try dump.output.write(toFile: sandbox.path("dump.pem"), atomically: true, encoding: .utf8)
        let ours = try openssl(["pkey", "-in", "dump.pem", "-pubout"], in: sandbox)
        let theirs = try openssl(["pkey", "-in", "leaf.key", "-pubout"], in: sandbox)
        #expect(ours.status == 0 && ours.output == theirs.output)
        #expect(try openssl(["pkcs12", "-in", file, "-passin", "pass:wrong", "-nodes"], in: sandbox).status != 0)

        let other = sandbox.path("other.keychain-db")
        #expect(try sandbox.run(["create-keychain", other]).status == 0)
        let reimported = try sandbox.run(["import", file, "-P", "Exp0rt-Pass", "-k", other])
        #expect(reimported.status == 0 && reimported.stdout == "1 identity imported.\n", "\(reimported)")
        #expect(try sandbox.run(["find-identity", other]).stdout.contains("cli leaf"))
        let fromOther = try sandbox.run(["export", "-k", other, "-t", "certs", "-f", "pemseq"])
        #expect(fromOther.status == 0 && fromOther.stdout.components(separatedBy: "BEGIN CERTIFICATE").count == 2, "\(fromOther)")
    }

    @Test("-t all in pkcs12 (chosen by the .p12 name; -w accepted) carries the CA too; -P given last reads the passphrase from standard input")
    func pkcs12AllPrompted() throws {
        let sandbox = try sandboxWithIdentity()
        let file = sandbox.path("all.p12")
        let exported = try sandbox.run(["export", "-o", file, "-w", "-P"], stdin: "typed-pass\n")
        #expect(exported.status == 0, "\(exported)")
        expectNoSecret(exported, "typed-pass")
        let dump = try openssl(["pkcs12", "-in", file, "-passin", "pass:typed-pass", "-nodes"], in: sandbox)
        #expect(dump.status == 0 && dump.output.components(separatedBy: "BEGIN CERTIFICATE").count == 3)
    }

    @Test("certificates: pemseq (the default for several), pkcs7 for openssl pkcs7 -print_certs, x509 DER equal to the original, -p PEM")
    func certificates() throws {
        let sandbox = try sandboxWithIdentity()
        let pemseq = try sandbox.run(["export", "-t", "certs"])
        #expect(pemseq.status == 0 && pemseq.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3, "\(pemseq)")
        #expect(!pemseq.stdout.contains("PRIVATE KEY"))
        try pemseq.stdoutData.write(to: URL(fileURLWithPath: sandbox.path("seq.pem")))
        #expect(try openssl(["x509", "-in", "seq.pem", "-noout", "-subject"], in: sandbox).status == 0)

        #expect(try sandbox.run(["export", "-t", "certs", "-f", "pkcs7", "-o", sandbox.path("b.p7b")]).status == 0)
        let printed = try openssl(["pkcs7", "-inform", "DER", "-in", "b.p7b", "-print_certs", "-noout"], in: sandbox)
        #expect(printed.status == 0 && printed.output.contains("CN = cli leaf") && printed.output.contains("CN = CLI Test CA"), "\(printed)")
        let armoured = try sandbox.run(["export", "-t", "certs", "-f", "pkcs7", "-p"])
        #expect(armoured.stdout.hasPrefix("-----BEGIN PKCS7-----\n"))

        let single = try CLISandbox()
        _ = try CLICertificateTests().makeFiles(single)
        #expect(try single.run(["import", single.path("ca.der")]).status == 0)
        #expect(try single.run(["export", "-t", "certs", "-o", single.path("ca-out.cer")]).status == 0)
        #expect(FileManager.default.contents(atPath: single.path("ca-out.cer")) == FileManager.default.contents(atPath: single.path("ca.der")))
        #expect(try openssl(["x509", "-inform", "DER", "-in", "ca-out.cer", "-noout"], in: single).status == 0)
        let pem = try single.run(["export", "-t", "certs", "-f", "x509", "-p"])
        #expect(pem.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
    }

    @Test("private keys: openssl format only wrapped (-w: encrypted traditional PEM), pkcs8 always encrypted; openssl pkey reads both with the passphrase only")
    func privateKeys() throws {
        let sandbox = try sandboxWithIdentity()
        let clear = try sandbox.run(["export", "-t", "privKeys", "-f", "openssl", "-P", "k-pass"])
        #expect(clear.status == Self.errSecKeyIsSensitiveExit, "\(clear)")
        #expect(clear.stdoutData.isEmpty && clear.stderr.contains("errSecKeyIsSensitive"))
        expectNoSecret(clear, "k-pass")

        let wrapped = try sandbox.run(["export", "-t", "privKeys", "-w", "-P", "k-pass", "-o", sandbox.path("key.pem")])
        #expect(wrapped.status == 0, "\(wrapped)")
        let text = try String(contentsOfFile: sandbox.path("key.pem"), encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,"))
        #expect(try mode(sandbox.path("key.pem")) == 0o600)
        let theirs = try openssl(["pkey", "-in", "leaf.key", "-pubout"], in: sandbox)
        let fromWrapped = try openssl(["pkey", "-in", "key.pem", "-passin", "pass:k-pass", "-pubout"], in: sandbox)
        #expect(fromWrapped.status == 0 && fromWrapped.output == theirs.output)
        #expect(try openssl(["pkey", "-in", "key.pem", "-passin", "pass:nope", "-noout"], in: sandbox).status != 0)

        #expect(try sandbox.run(["export", "-t", "privKeys", "-f", "pkcs8", "-P", "k-pass", "-o", sandbox.path("key.p8")]).status == 0)
        let fromDER = try openssl(["pkey", "-inform", "DER", "-in", "key.p8", "-passin", "pass:k-pass", "-pubout"], in: sandbox)
        #expect(fromDER.status == 0 && fromDER.output == theirs.output)
        #expect(try openssl(["pkey", "-inform", "DER", "-in", "key.p8", "-passin", "pass:nope", "-noout"], in: sandbox).status != 0)
        let armoured = try sandbox.run(["export", "-t", "privKeys", "-f", "pkcs8", "-p", "-P", "k-pass"])
        #expect(armoured.stdout.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))

        // -t all in a PEM sequence: the certificates, and the key encrypted.
        let sequence = try sandbox.run(["export", "-P", "k-pass", "-f", "pemseq"])
        #expect(sequence.status == 0 && sequence.stdout.contains("BEGIN ENCRYPTED PRIVATE KEY") && !sequence.stdout.contains("BEGIN PRIVATE KEY"))
    }

    @Test("RSA and public keys from create-keypair: wrapped RSA PRIVATE KEY, public keys as SubjectPublicKeyInfo")
    func keypairKeys() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["create-keypair", "-a", "rsa", "-s", "2048", "pair"]).status == 0)
        let publicKey = try sandbox.run(["export", "-t", "pubKeys", "-f", "openssl", "-p", "-o", sandbox.path("pub.pem")])
        #expect(publicKey.status == 0, "\(publicKey)")
        #expect(try openssl(["pkey", "-pubin", "-in", "pub.pem", "-noout"], in: sandbox).status == 0)
        let der = try sandbox.run(["export", "-t", "pubKeys", "-o", sandbox.path("pub.der")])
        #expect(der.status == 0)
        #expect(try openssl(["pkey", "-pubin", "-inform", "DER", "-in", "pub.der", "-noout"], in: sandbox).status == 0)
        let wrapped = try sandbox.run(["export", "-t", "privKeys", "-w", "-P", "rsa-pass"])
        #expect(wrapped.stdout.hasPrefix("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"), "\(wrapped)")
        try wrapped.stdoutData.write(to: URL(fileURLWithPath: sandbox.path("rsa.pem")))
        let fromPrivate = try openssl(["pkey", "-in", "rsa.pem", "-passin", "pass:rsa-pass", "-pubout"], in: sandbox)
        let fromPublic = try openssl(["pkey", "-pubin", "-in", "pub.pem"], in: sandbox)
        #expect(fromPrivate.status == 0 && fromPrivate.output == fromPublic.output)
        // openssh2: the public key as an OpenSSH line, the same key ssh-keygen converts from the PEM.
        let ssh = try sandbox.run(["export", "-t", "pubKeys", "-f", "openssh2", "-o", sandbox.path("pair.pub")])
        #expect(ssh.status == 0, "\(ssh)")
        let line = try String(contentsOfFile: sandbox.path("pair.pub"), encoding: .utf8)
        let converted = try sshKeygen(["-i", "-m", "PKCS8", "-f", sandbox.path("pub.pem")])
        #expect(line.hasPrefix("ssh-rsa ") && line.hasSuffix(" pair\n"), "\(line)")
        #expect(line.split(separator: " ")[1] == converted.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[1], "the same key blob as ssh-keygen's")
        #expect(try sshKeygen(["-l", "-f", sandbox.path("pair.pub")]).contains("(RSA)"))
        #expect(try sandbox.run(["export", "-t", "privKeys", "-f", "openssh2"]).status == Self.errSecParamExit)
        let wrappedSSH = try sandbox.run(["export", "-t", "privKeys", "-f", "openssh2", "-w", "-P", "rsa-pass"])
        #expect(wrappedSSH.stdout.hasPrefix("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"), "security: no wrapped SSHv2")

        let both = try sandbox.run(["export", "-t", "allKeys", "-P", "rsa-pass"])
        #expect(both.stdout.contains("BEGIN PUBLIC KEY") && both.stdout.contains("BEGIN ENCRYPTED PRIVATE KEY"), "\(both)")
    }

    @Test("a locked keychain: the private key is not exported (exit 36) and no file is left; its certificates (accessible always) still are")
    func lockedKeychain() throws {
        let sandbox = try CLISandbox()
        _ = try CLICertificateTests().makeFiles(sandbox)
        let path = sandbox.path("locked.keychain-db")
        #expect(try sandbox.run(["create-keychain", "-p", "kc-pass", path]).status == 0)
        #expect(try sandbox.run(["import", sandbox.path("leaf.p12"), "-P", "secret", "-k", path]).status == 0)
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        let refused = try sandbox.run(["export", "-k", path, "-t", "identities", "-o", sandbox.path("locked.p12"), "-P", "x"])
        #expect(refused.status == 36, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("locked.p12")))
        let certificates = try sandbox.run(["export", "-k", path, "-t", "certs", "-f", "pemseq"])
        #expect(certificates.status == 0 && certificates.stdout.contains("BEGIN CERTIFICATE"))
    }

    @Test("bad requests: unsupported and unknown formats, wrong type for the format, several items in a one-item format, nothing to export, existing or unwritable output")
    func refusals() throws {
        let sandbox = try sandboxWithIdentity()
        for format in ["openssh1", "bsafe", "netscape", "raw", "rawkey"] {
            let result = try sandbox.run(["export", "-t", "certs", "-f", format])
            #expect(result.status == Self.errSecUnsupportedFormatExit, "\(format): \(result)")
            #expect(result.stderr.contains("not supported"))
        }
        #expect(try sandbox.run(["export", "-f", "jpeg"]).status == 2)
        #expect(try sandbox.run(["export", "-t", "everything"]).status == 2)
        #expect(try sandbox.run(["export", "-t", "certs", "-f", "pemseq", "-w"]).status == 2, "security cannot wrap in that format")
        #expect(try sandbox.run(["export", "-t", "certs", "-f", "x509"]).status == Self.errSecParamExit, "two certificates in x509")
        #expect(try sandbox.run(["export", "-t", "privKeys", "-f", "x509"]).status == Self.errSecParamExit)
        #expect(try sandbox.run(["export", "-t", "identities", "-f", "pkcs7"]).status == Self.errSecParamExit)
        #expect(try sandbox.run(["export", "-t", "certs", "-f", "pkcs8", "-P", "x"]).status == Self.errSecParamExit)
        #expect(try sandbox.run(["export", "-t", "identities", "-f", "pkcs12", "-p", "-P", "x"]).status == Self.errSecParamExit)
        #expect(try sandbox.run(["export", "-t", "pubKeys", "-f", "pemseq"]).status == Self.errSecItemNotFoundExit)
        let missingFolder = try sandbox.run(["export", "-t", "certs", "-o", sandbox.path("no/such/folder/out.pem")])
        #expect(missingFolder.status == Self.errSecIOExit && missingFolder.stderr.contains("could not be written"), "\(missingFolder)")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: sandbox.path("exists.pem")))
        #expect(try sandbox.run(["export", "-t", "certs", "-o", sandbox.path("exists.pem")]).status == Self.fileExistsExit)
        #expect(FileManager.default.contents(atPath: sandbox.path("exists.pem")) == Data("keep".utf8))
        let forced = try sandbox.run(["export", "-t", "certs", "--force", "-o", sandbox.path("exists.pem")])
        let replaced = try String(contentsOfFile: sandbox.path("exists.pem"), encoding: .utf8)
        #expect(forced.status == 0 && replaced.hasPrefix("-----BEGIN CERTIFICATE"))
        #expect(try CLISandbox().run(["export", "-t", "certs"]).status == Self.errSecItemNotFoundExit)
        // Without -t/-f/-w/-p and with a backup's name, export still writes a backup.
        let backup = try sandbox.run(["export", "-o", sandbox.path("items.backup"), "-P", "b"])
        #expect(backup.status == 0 && backup.stdout.hasSuffix("items exported.\n"), "\(backup)")
    }
}
