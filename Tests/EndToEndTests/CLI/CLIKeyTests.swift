import Foundation
import Testing

/// `create-keypair`, `export-key` and `import-key`, checked with openssl.
@Suite struct CLIKeyTests {
    let errSecDuplicateItemCode: Int32 = -25299
    let errSecUnimplementedCode: Int32 = -4

    func openssl(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("create-keypair stores both halves; export-key writes PEM and DER that openssl reads; a second import is a duplicate")
    func createAndExport() throws {
        let sandbox = try CLISandbox()
        let created = try sandbox.run(["create-keypair", "-a", "ec", "-s", "256", "-g", "com.example.tag", "-d", "30", "signing"])
        #expect(created.status == 0, "\(created)")
        let publicPEM = sandbox.path("public.pem"), privateDER = sandbox.path("private.der")
        #expect(try sandbox.run(["export-key", "-l", "signing", "--public", "-o", publicPEM]).status == 0)
        #expect(try sandbox.run(["export-key", "-g", "com.example.tag", "-f", "der", "-o", privateDER]).status == 0)
        #expect(try openssl(["pkey", "-pubin", "-in", publicPEM, "-noout"]) == 0)
        #expect(try openssl(["pkey", "-inform", "DER", "-in", privateDER, "-noout"]) == 0)
        // The dates are part of a key's primary key: the exported key imported under the same tag
        // but without them is another item; imported again, it is a duplicate.
        #expect(try sandbox.run(["import-key", privateDER, "-g", "com.example.tag"]).status == 0)
        let again = try sandbox.run(["import-key", privateDER, "-g", "com.example.tag"])
        #expect(again.status == Int32(UInt8(truncatingIfNeeded: errSecDuplicateItemCode)), "\(again)")
        #expect(try sandbox.run(["export-key", "-l", "nothing"]).status != 0)
        #expect(try sandbox.run(["create-keypair", "-a", "dsa", "x"]).status == Int32(UInt8(truncatingIfNeeded: errSecUnimplementedCode)))
        #expect(try sandbox.run(["create-keypair", "-a", "rsa", "-s", "2048", "rsa-key"]).status == 0)
        #expect(try sandbox.run(["create-keypair", "-a", "ed25519", "ed-key"]).status == 0)
        let edPublic = sandbox.path("ed.pub")
        #expect(try sandbox.run(["export-key", "-l", "ed-key", "--public", "-o", edPublic]).status == 0)
        #expect(try openssl(["pkey", "-pubin", "-in", edPublic, "-noout"]) == 0)
    }

    @Test("import-key reads openssl's RSA, EC and Ed25519 keys; export-key gives the same public key back")
    func importOpenSSL() throws {
        let sandbox = try CLISandbox()
        for (name, algorithm) in [("rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]),
                                  ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
                                  ("ed25519", ["-algorithm", "ED25519"])] {
            let keyFile = sandbox.path("\(name).pem")
            #expect(try openssl(["genpkey"] + algorithm + ["-out", keyFile]) == 0)
            let imported = try sandbox.run(["import-key", keyFile, "-l", name])
            #expect(imported.status == 0, "\(imported)")
            let exported = try sandbox.run(["export-key", "-l", name])
            #expect(exported.status == 0 && exported.stdout.contains("BEGIN PRIVATE KEY"))
            let ours = sandbox.path("\(name)-ours.pem")
            try exported.stdoutData.write(to: URL(fileURLWithPath: ours))
            // Same key: openssl derives the same public key from both files.
            let theirsPublic = sandbox.path("\(name)-theirs.pub"), oursPublic = sandbox.path("\(name)-ours.pub")
            #expect(try openssl(["pkey", "-in", keyFile, "-pubout", "-out", theirsPublic]) == 0)
            #expect(try openssl(["pkey", "-in", ours, "-pubout", "-out", oursPublic]) == 0)
            #expect(FileManager.default.contents(atPath: theirsPublic) == FileManager.default.contents(atPath: oursPublic))
        }
        let garbage = sandbox.path("garbage.pem")
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: garbage))
        #expect(try sandbox.run(["import-key", garbage]).status != 0)
    }
}
