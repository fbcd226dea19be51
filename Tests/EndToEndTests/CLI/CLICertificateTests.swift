import Foundation
import Testing

/// `import` of certificates and PKCS#12 files, `find-certificate`, `find-identity`,
/// `delete-certificate` and `delete-identity`, on files openssl made.
@Suite struct CLICertificateTests {
    func openssl(_ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments)")
    }

    /// A CA, a leaf with an e-mail address signed by it, and a PKCS#12 file of the leaf.
    func makeFiles(_ sandbox: CLISandbox) throws -> String {
        let directory = sandbox.path("")
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
                     "-subj", "/CN=CLI Test CA", "-days", "30", "-addext", "basicConstraints=critical,CA:TRUE"], in: directory)
        try openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
                     "-subj", "/CN=cli leaf"], in: directory)
        try "subjectAltName = email:leaf@example.com\n".write(toFile: sandbox.path("leaf.ext"), atomically: true, encoding: .utf8)
        try openssl(["x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "7", "-days", "30",
                     "-extfile", "leaf.ext", "-out", "leaf.pem"], in: directory)
        try openssl(["x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der"], in: directory)
        try openssl(["pkcs12", "-export", "-inkey", "leaf.key", "-in", "leaf.pem", "-certfile", "ca.pem", "-out", "leaf.p12",
                     "-passout", "pass:secret", "-name", "CLI identity"], in: directory)
        return directory
    }

    @Test("import adds a PKCS#12 file's identity and its CA; find-certificate and find-identity show them; delete-identity removes both halves")
    func importFindDelete() throws {
        let sandbox = try CLISandbox()
        _ = try makeFiles(sandbox)
        let imported = try sandbox.run(["import", sandbox.path("leaf.p12"), "-P", "secret"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "1 identity imported.\n1 certificate imported.\n")
        #expect(try sandbox.run(["import", sandbox.path("ca.der")]).status == 45, "the CA came with the identity")
        #expect(try sandbox.run(["import", sandbox.path("leaf.p12"), "-P", "wrong"]).status == 51)

        let hashes = try sandbox.run(["find-certificate", "-c", "cli leaf", "-Z"])
        #expect(hashes.status == 0)
        let sha1 = try #require(hashes.stdout.split(separator: "\n").first { $0.hasPrefix("SHA-1 hash: ") }).dropFirst("SHA-1 hash: ".count)
        #expect(sha1.count == 40)
        let byMail = try sandbox.run(["find-certificate", "-e", "LEAF@example.com", "-p"])
        #expect(byMail.stdout.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        let pemFile = sandbox.path("found.pem")
        try byMail.stdoutData.write(to: URL(fileURLWithPath: pemFile))
        let fingerprint = try sandbox.run(["find-certificate", "-a", "-Z"])
        #expect(fingerprint.stdout.components(separatedBy: "SHA-1 hash:").count == 3, "two certificates with -a")
        let listing = try sandbox.run(["find-certificate", "-c", "CLI Test CA"])
        #expect(listing.stdout.contains("\"labl\"<blob>=\"CLI Test CA\""))
        #expect(listing.stdout.contains("\"ctyp\"<uint32>=0x00000003"))
        #expect(try sandbox.run(["find-certificate", "-c", "nobody"]).status == 44)

        let identities = try sandbox.run(["find-identity"])
        #expect(identities.stdout.contains("1) \(sha1) \"cli leaf\" (CSSMERR_TP_NOT_TRUSTED)"), "\(identities.stdout)")
        #expect(identities.stdout.contains("1 identities found"))
        #expect(identities.stdout.contains("0 valid identities found"), "the test CA is not a system anchor")

        #expect(try sandbox.run(["delete-identity", "-Z", String(sha1)]).status == 0)
        #expect(try sandbox.run(["find-identity"]).stdout.contains("0 identities found"))
        #expect(try sandbox.run(["find-certificate", "-c", "cli leaf"]).status == 44)
        #expect(try sandbox.run(["delete-certificate", "-c", "CLI Test CA"]).status == 0)
        #expect(try sandbox.run(["delete-certificate", "-c", "CLI Test CA"]).status == 44)
        // The PEM find-certificate wrote imports again.
        #expect(try sandbox.run(["import", pemFile]).stdout == "1 certificate imported.\n")
    }

    @Test("a legacy (RC2/3DES) PKCS#12 file imports its identity; a wrong passphrase exits 51")
    func legacyFile() throws {
        let sandbox = try CLISandbox()
        let directory = try makeFiles(sandbox)
        try openssl(["pkcs12", "-export", "-legacy", "-inkey", "leaf.key", "-in", "leaf.pem", "-out", "legacy.pfx", "-passout", "pass:pw"], in: directory)
        #expect(try sandbox.run(["import", sandbox.path("legacy.pfx"), "-P", "wrong"]).status == 51)
        let result = try sandbox.run(["import", sandbox.path("legacy.pfx"), "-P", "pw"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.run(["find-identity"]).stdout.contains("1 identities found"))
    }
}
