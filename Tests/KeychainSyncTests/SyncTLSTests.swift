#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
@testable import KeychainSync
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// TLS to the sync store with libpq's `sslmode` meanings (SyncServerURL), against a real
/// PostgreSQL with `ssl=on` and certificates made by openssl for the test.
@Suite("Sync: TLS to the server", .serialized)
struct SyncTLSTests {
    /// A CA, a server certificate it signed for `localhost` only, and an unrelated CA.
    struct Certificates {
        let folder: URL
        var caFile: String { folder.path + "/ca.crt" }
        var otherCAFile: String { folder.path + "/other-ca.crt" }
        var serverCertificate: String { folder.path + "/server.crt" }
        var serverKey: String { folder.path + "/server.key" }

        init(in folder: URL) throws {
            self.folder = folder
            let path = folder.path
            try SyncTLSTests.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                      "-keyout", path + "/ca.key", "-out", path + "/ca.crt", "-subj", "/CN=keychain sync test CA",
                                      "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE",
                                      "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
            try SyncTLSTests.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                      "-keyout", path + "/other-ca.key", "-out", path + "/other-ca.crt", "-subj", "/CN=some other CA",
                                      "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE",
                                      "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
            try SyncTLSTests.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                      "-keyout", path + "/server.key", "-out", path + "/server.csr", "-subj", "/CN=localhost"])
            try Data("subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
                .write(to: folder.appendingPathComponent("server.ext"))
            try SyncTLSTests.openssl(["x509", "-req", "-in", path + "/server.csr", "-CA", path + "/ca.crt", "-CAkey", path + "/ca.key",
                                      "-CAcreateserial", "-out", path + "/server.crt", "-days", "2", "-extfile", path + "/server.ext"])
        }
    }

    static func openssl(_ arguments: [String]) throws {
        let result = try PostgresServer.run(["/usr/bin/openssl"] + arguments)
        try #require(result.status == 0, "openssl \(arguments.first ?? "") failed: \(result.output)")
    }

    /// A server that listens on loopback TCP with TLS on, and refuses any TCP client without TLS
    /// (so a connection that succeeds proves TLS was used).
    static func tlsServer(port: Int) throws -> PostgresServer {
        try PostgresServer(extraOptions: "-c port=\(port) -c listen_addresses=127.0.0.1 -c ssl=on "
            + "-c ssl_cert_file=server.crt -c ssl_key_file=server.key") { server in
            let certificates = try Certificates(in: server.folder)
            for file in [certificates.serverCertificate, certificates.serverKey] {
                let target = server.dataFolder + "/" + URL(fileURLWithPath: file).lastPathComponent
                try FileManager.default.copyItem(atPath: file, toPath: target)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: target)
                if getuid() == 0 { _ = try PostgresServer.run(["/bin/chown", "postgres:postgres", target]) }
            }
            let hba = server.dataFolder + "/pg_hba.conf"
            let rules = try String(contentsOfFile: hba, encoding: .utf8)
            try ("hostnossl all all 127.0.0.1/32 reject\n" + rules).write(toFile: hba, atomically: true, encoding: .utf8)
        }
    }

    @Test("sslmode: verify-full with the right CA connects; a wrong host name or CA is refused clearly; require connects unchecked")
    func sslModes() throws {
        let port = Int.random(in: 20000...60000)
        let server = try SyncTLSTests.tlsServer(port: port)
        defer { server.stop() }
        let caFile = server.folder.path + "/ca.crt", otherCAFile = server.folder.path + "/other-ca.crt"
        let base = "postgresql://\(PostgresServer.user)@localhost:\(port)/postgres"

        // Each join is a separate process connecting afresh; the first creates the group, the
        // others ask to join it by its fingerprint.
        var group: String?
        func join(_ url: String) throws -> (status: Int32, output: String) {
            try SyncDevice("tls").cli(["join", url, "--name", "tls"] + (group.map { ["--group", $0] } ?? []))
        }
        let full = try join(base + "?sslmode=verify-full&sslrootcert=\(caFile)")
        #expect(full.status == 0 && full.output.contains("created a new sync group"), "\(full.output)")
        group = try #require(SyncDevice.groupFingerprint(in: full.output))

        // 127.0.0.1 reaches the same server, but the certificate names only localhost.
        let wrongHost = try join("postgresql://\(PostgresServer.user)@127.0.0.1:\(port)/postgres?sslmode=verify-full&sslrootcert=\(caFile)")
        #expect(wrongHost.status != 0)
        #expect(wrongHost.output.contains("does not name the host"), "\(wrongHost.output)")

        let wrongCA = try join(base + "?sslmode=verify-full&sslrootcert=\(otherCAFile)")
        #expect(wrongCA.status != 0)
        #expect(wrongCA.output.contains("not signed by a trusted CA"), "\(wrongCA.output)")
        // require with a CA file checks the chain (libpq's rule), so the wrong CA is refused there too.
        let requireWrongCA = try join(base + "?sslmode=require&sslrootcert=\(otherCAFile)")
        #expect(requireWrongCA.status != 0 && requireWrongCA.output.contains("not signed by a trusted CA"), "\(requireWrongCA.output)")

        // Without a CA file, require and prefer encrypt without checking; the host name does not matter.
        for mode in ["require", "prefer"] {
            let unchecked = try join("postgresql://\(PostgresServer.user)@127.0.0.1:\(port)/postgres?sslmode=\(mode)")
            #expect(unchecked.status == 0 && unchecked.output.contains("asked to join"), "\(mode): \(unchecked.output)")
        }
        let byDefault = try join(base)
        #expect(byDefault.status == 0 && byDefault.output.contains("asked to join"), "\(byDefault.output)")

        // The server refuses TCP without TLS, so the connections above were encrypted.
        let plain = try join(base + "?sslmode=disable")
        #expect(plain.status != 0, "\(plain.output)")
        let missingCA = try join(base + "?sslmode=verify-full&sslrootcert=\(server.folder.path)/absent.crt")
        #expect(missingCA.status != 0 && missingCA.output.contains("cannot be read"), "\(missingCA.output)")
    }

    @Test("sslmode and sslrootcert in URLs: parsed, kept in the redacted form, refused when unknown or on a socket")
    func urlParameters() throws {
        #expect(try SyncServerURL("postgresql://a@db.example/kc").tlsMode == .verifyFull)
        #expect(try SyncServerURL("postgresql://a@localhost/kc").tlsMode == .prefer)
        #expect(try SyncServerURL("postgresql://a@/kc?host=/run/postgresql").tlsMode == nil)
        let full = try SyncServerURL("postgresql://a:pw@db.example/kc?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(full.tlsMode == .verifyFull && full.rootCertificatePath == "/etc/ca.pem")
        #expect(full.redacted == "postgresql://a@db.example/kc?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        #expect(try SyncServerURL("postgresql://a@db.example/kc?sslmode=disable").tlsMode == .disable)
        #expect(throws: SyncError.self) { try SyncServerURL("postgresql://a@db.example/kc?sslmode=sometimes") }
        #expect(throws: SyncError.self) { try SyncServerURL("postgresql://a@/kc?host=/run/postgresql&sslmode=verify-full") }
    }
}
#endif
