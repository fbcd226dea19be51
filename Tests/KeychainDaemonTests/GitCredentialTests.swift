import Foundation
import Testing

/// git's own credential helper for libsecret (built from the source Debian's git package ships)
/// keeping credentials in keychaind, as internet passwords the keychain's tools see.
@Suite struct GitCredentialTests {
    static let helperSource = "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c"

    /// Compiles git-credential-libsecret into the sandbox.
    static func buildHelper(_ sandbox: DaemonSandbox) throws -> String {
        let output = sandbox.home.appendingPathComponent("git-credential-libsecret").path
        let flags = try sandbox.run("/usr/bin/pkg-config", ["--cflags", "--libs", "glib-2.0", "libsecret-1"])
        try #require(flags.status == 0, "pkg-config cannot find libsecret-1 (libsecret-1-dev): \(flags)")
        let compiled = try sandbox.run("/usr/bin/cc", ["-o", output, helperSource]
            + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
        try #require(compiled.status == 0, "git-credential-libsecret did not build: \(compiled)")
        return output
    }

    static func git(_ sandbox: DaemonSandbox, helper: String, _ action: String, _ input: String) throws -> ClientResult {
        try sandbox.run("/usr/bin/git", ["-c", "credential.helper=\(helper)", "-c", "credential.useHttpPath=true", "credential", action],
                        stdin: input, environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "/bin/false"])
    }

    @Test func approveFillReject() throws {
        let sandbox = try DaemonSandbox()
        let helper = try Self.buildHelper(sandbox)
        let credential = "protocol=https\nhost=git.example.com\npath=team/repo.git\nusername=bob\npassword=s3cret\n\n"
        let approved = try Self.git(sandbox, helper: helper, "approve", credential)
        #expect(approved.status == 0, "\(approved)")

        let filled = try Self.git(sandbox, helper: helper, "fill", "protocol=https\nhost=git.example.com\npath=team/repo.git\n\n")
        #expect(filled.status == 0, "\(filled)\n\(sandbox.log)")
        #expect(filled.stdout.contains("username=bob\n"))
        #expect(filled.stdout.contains("password=s3cret\n"))

        // The credential is the keychain's internet password for that server and account.
        let found = try sandbox.keychainctl(["find-internet-password", "-s", "git.example.com", "-a", "bob", "-w"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "s3cret\n")

        let rejected = try Self.git(sandbox, helper: helper, "reject", credential)
        #expect(rejected.status == 0, "\(rejected)")
        let gone = try sandbox.keychainctl(["find-internet-password", "-s", "git.example.com", "-a", "bob", "-w"])
        #expect(gone.status != 0)
        // With prompts off and nothing stored, git can no longer fill the credential in.
        let refill = try Self.git(sandbox, helper: helper, "fill", "protocol=https\nhost=git.example.com\npath=team/repo.git\n\n")
        #expect(refill.status != 0)
    }

    @Test func gitReadsAnInternetPasswordTheKeychainAdded() throws {
        let sandbox = try DaemonSandbox()
        let helper = try Self.buildHelper(sandbox)
        let added = try sandbox.keychainctl(["add-internet-password", "-s", "code.example.org", "-a", "carol", "-r", "htps", "-w", "from-keychain"])
        #expect(added.status == 0, "\(added)")
        let filled = try Self.git(sandbox, helper: helper, "fill", "protocol=https\nhost=code.example.org\n\n")
        #expect(filled.status == 0, "\(filled)\n\(sandbox.log)")
        #expect(filled.stdout.contains("username=carol\n"))
        #expect(filled.stdout.contains("password=from-keychain\n"))
    }
}
