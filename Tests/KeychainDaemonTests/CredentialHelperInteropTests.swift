import Foundation
import Testing

/// git-credential-keychain and git's libsecret helper (through keychaind) on one keychain: each
/// reads what the other stored, and a store by either updates the one item rather than adding a
/// second.
@Suite struct CredentialHelperInteropTests {
    static func keychainHelper(_ sandbox: DaemonSandbox, _ action: String, _ input: String) throws -> ClientResult {
        try sandbox.run(try BuiltProduct.url("git-credential-keychain").path, [action], stdin: input)
    }

    @Test("libsecret's helper and git-credential-keychain share one internet password")
    func oneItem() throws {
        let sandbox = try DaemonSandbox()
        let libsecret = try GitCredentialTests.buildHelper(sandbox)
        let request = "protocol=https\nhost=shared.example.com\npath=team/repo.git\n\n"

        let approved = try GitCredentialTests.git(sandbox, helper: libsecret, "approve",
                                                  "protocol=https\nhost=shared.example.com\npath=team/repo.git\nusername=bob\npassword=from-libsecret\n\n")
        #expect(approved.status == 0, "\(approved)")
        let got = try Self.keychainHelper(sandbox, "get", request)
        #expect(got.status == 0, "\(got)")
        #expect(got.stdout == "username=bob\npassword=from-libsecret\n")

        let stored = try Self.keychainHelper(sandbox, "store",
                                             "protocol=https\nhost=shared.example.com\npath=team/repo.git\nusername=bob\npassword=from-helper\n\n")
        #expect(stored.status == 0, "\(stored)")
        let filled = try GitCredentialTests.git(sandbox, helper: libsecret, "fill", request)
        #expect(filled.status == 0, "\(filled)\n\(sandbox.log)")
        #expect(filled.stdout.contains("password=from-helper\n"))
        let dump = try sandbox.keychainctl(["dump-keychain"])
        #expect(dump.stdout.components(separatedBy: "class: \"inet\"").count == 2, "one item: \(dump.stdout)")

        // And the other way: stored here first, libsecret's store replaces the same item.
        #expect(try Self.keychainHelper(sandbox, "store", "protocol=https\nhost=other.example\nusername=al\npassword=one\n\n").status == 0)
        let reapproved = try GitCredentialTests.git(sandbox, helper: libsecret, "approve",
                                                    "protocol=https\nhost=other.example\nusername=al\npassword=two\n\n")
        #expect(reapproved.status == 0 && reapproved.stderr.isEmpty, "\(reapproved)\n\(sandbox.log)")
        #expect(try Self.keychainHelper(sandbox, "get", "protocol=https\nhost=other.example\n\n").stdout == "username=al\npassword=two\n")
        #expect(try sandbox.keychainctl(["dump-keychain"]).stdout.components(separatedBy: "class: \"inet\"").count == 3)

        #expect(try Self.keychainHelper(sandbox, "erase", request).status == 0)
        let gone = try GitCredentialTests.git(sandbox, helper: libsecret, "fill", request)
        #expect(!gone.stdout.contains("password="), "\(gone)")
    }
}
