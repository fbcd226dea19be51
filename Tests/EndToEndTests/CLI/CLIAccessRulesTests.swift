import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `list-access-rules`, `grant-access` and `revoke-access` on the user's policy folder of a
/// private home, with the real keychainctl: what is written is what keychaind's reader accepts,
/// and what it would refuse is refused with its reason (docs/isolation.md).
@Suite struct CLIAccessRulesTests {
    static func folder(_ sandbox: CLISandbox) -> String { sandbox.path("config/swift-keychain/apps.d") }

    static func ruleFiles(_ sandbox: CLISandbox) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder(sandbox))) ?? []).filter { $0.hasSuffix(".conf") }.sorted()
    }

    /// A program of the sandbox's own (a copy of `true`), so its path is the user's, not root's.
    static func program(_ sandbox: CLISandbox, _ name: String = "tool") throws -> String {
        let path = sandbox.path("bin/\(name)")
        try FileManager.default.createDirectory(atPath: sandbox.path("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/bin/true", toPath: path)
        return path
    }

    /// The SHA-256 of a file, as coreutils computes it.
    static func sha256(_ path: String, _ sandbox: CLISandbox) throws -> String {
        let result = try sandbox.run([path], executable: URL(fileURLWithPath: "/usr/bin/sha256sum"))
        return String(result.stdout.prefix(64))
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aGrantForAnExecutableIsListedWithItsDigest() throws {
        let sandbox = try CLISandbox()
        let tool = try Self.program(sandbox)
        let granted = try sandbox.run(["grant-access", "--executable", tool, "--access-group", "org.example.tool",
                                       "--access-group", "swift-keychain.shared", "--application-identifier", "org.example.tool"])
        #expect(granted.status == 0, "\(granted)")
        #expect(granted.stdout.hasPrefix("Granted the executable \(tool) access in \(Self.folder(sandbox))/"), "\(granted)")
        let files = Self.ruleFiles(sandbox)
        #expect(files == ["executable-" + tool.dropFirst().replacingOccurrences(of: "/", with: "-") + ".conf"], "\(files)")
        // The modes keychaind's reader accepts, as the loader requires them for a user's folder.
        #expect(try Self.mode(Self.folder(sandbox)) == 0o700)
        #expect(try Self.mode(Self.folder(sandbox) + "/" + files[0]) == 0o600)

        let digest = try Self.sha256(tool, sandbox)
        try #require(digest.count == 64)
        let listed = try sandbox.run(["list-access-rules"])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stdout == """
            \(Self.folder(sandbox))/\(files[0])
                executable = \(tool)
                executable-sha256 = \(digest)
                application-identifier = org.example.tool
                keychain-access-groups = org.example.tool, swift-keychain.shared

            """, "\(listed)")

        let json = try sandbox.run(["list-access-rules", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        #expect(object["folder"] as? String == Self.folder(sandbox))
        #expect((object["refused"] as? [Any])?.isEmpty == true)
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.count == 1)
        #expect((rules.first?["executable"] as? [String: String]) == ["path": tool, "sha256": digest])
        #expect(rules.first?["keychainAccessGroups"] as? [String] == ["org.example.tool", "swift-keychain.shared"])
        #expect(rules.first?["applicationIdentifier"] as? String == "org.example.tool")
    }

    /// An interpreter or a generic client runs whatever it is told to, so a rule never grants by
    /// one alone: the grant is refused with the reader's reason, and nothing is written.
    @Test(arguments: ["python3", "secret-tool"])
    func aGrantForAnInterpreterWithoutAScriptIsRefused(program: String) throws {
        let sandbox = try CLISandbox()
        let refused = try sandbox.run(["grant-access", "--executable", program, "--access-group", "g"])
        #expect(refused.status == 206, "\(refused)")
        #expect(refused.stderr.contains("is an interpreter or generic client"), "\(refused)")
        #expect(refused.stderr.contains("name the script it must run with 'script'"), "\(refused)")
        #expect(Self.ruleFiles(sandbox).isEmpty)

        // With the script it must run, it is granted, both digests pinned.
        let script = sandbox.path("tool.py")
        try "print('hello')\n".write(toFile: script, atomically: true, encoding: .utf8)
        let granted = try sandbox.run(["grant-access", "--executable", program, "--script", script, "--access-group", "g"])
        #expect(granted.status == 0, "\(granted)")
        let digest = try Self.sha256(script, sandbox)
        #expect(granted.stdout.contains("script = \(script)\n") && granted.stdout.contains("script-sha256 = \(digest)\n"), "\(granted)")
        #expect(Self.ruleFiles(sandbox).count == 1)
    }

    @Test func grantingAgainReplacesTheRuleAndRevokingRemovesIt() throws {
        let sandbox = try CLISandbox()
        let first = try sandbox.run(["grant-access", "--flatpak", "org.example.A", "--access-group", "one"])
        #expect(first.status == 0 && first.stdout.hasPrefix("Granted the Flatpak app org.example.A access"), "\(first)")
        let again = try sandbox.run(["grant-access", "--flatpak", "org.example.A", "--access-group", "two", "--access-group", "three"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.hasPrefix("Replaced the rule for the Flatpak app org.example.A in \(Self.folder(sandbox))/flatpak-org.example.A.conf"),
                "\(again)")
        #expect(Self.ruleFiles(sandbox) == ["flatpak-org.example.A.conf"])
        let listed = try sandbox.run(["list-access-rules"])
        #expect(listed.stdout.contains("keychain-access-groups = two, three\n") && !listed.stdout.contains("one"), "\(listed)")

        let revoked = try sandbox.run(["revoke-access", "--flatpak", "org.example.A"])
        #expect(revoked.status == 0, "\(revoked)")
        #expect(revoked.stdout.hasPrefix("Removed \(Self.folder(sandbox))/flatpak-org.example.A.conf.\n"), "\(revoked)")
        #expect(Self.ruleFiles(sandbox).isEmpty)
        let none = try sandbox.run(["revoke-access", "--flatpak", "org.example.A"])
        #expect(none.status == 44, "\(none)")
        #expect(none.stderr.contains("no rule in \(Self.folder(sandbox)) names the Flatpak app org.example.A"), "\(none)")
        #expect(try sandbox.run(["list-access-rules"]).stdout == "No rules in \(Self.folder(sandbox)).\n")
    }

    /// A rule written by hand for the same app: a second one would be refused (or would shadow
    /// it), so the grant is refused and names that file; revoking removes it.
    @Test func aSecondRuleForAnAppNamedByAnotherFileIsRefused() throws {
        let sandbox = try CLISandbox()
        let folder = Self.folder(sandbox)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for (name, text) in [("a-mine.conf", "flatpak = org.example.A\nkeychain-access-groups = mine\n"),
                             ("zz-broken.conf", "flatpak = org.example.B\n")] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]))
        }
        let refused = try sandbox.run(["grant-access", "--flatpak", "org.example.A", "--access-group", "other"])
        #expect(refused.status == 206, "\(refused)")
        #expect(refused.stderr.contains("names the same caller as \(folder)/a-mine.conf"), "\(refused)")
        #expect(Self.ruleFiles(sandbox) == ["a-mine.conf", "zz-broken.conf"])

        // The listing shows the refused file with the reader's reason.
        let listed = try sandbox.run(["list-access-rules"])
        #expect(listed.stdout.contains("\(folder)/zz-broken.conf\n    refused: no keychain-access-groups"), "\(listed)")

        let revoked = try sandbox.run(["revoke-access", "--flatpak", "org.example.A"])
        #expect(revoked.status == 0 && revoked.stdout.hasPrefix("Removed \(folder)/a-mine.conf.\n"), "\(revoked)")
        #expect(Self.ruleFiles(sandbox) == ["zz-broken.conf"])
    }

    @Test func aSubjectIsNamedExactlyOnce() throws {
        let sandbox = try CLISandbox()
        let both = try sandbox.run(["grant-access", "--flatpak", "org.example.A", "--snap", "a", "--access-group", "g"])
        #expect(both.status == 2 && both.stderr.contains("exactly one of"), "\(both)")
        let noGroup = try sandbox.run(["grant-access", "--flatpak", "org.example.A"])
        #expect(noGroup.status == 2 && noGroup.stderr.contains("--access-group"), "\(noGroup)")
        let badID = try sandbox.run(["grant-access", "--flatpak", "not/an id", "--access-group", "g"])
        #expect(badID.status == 206 && badID.stderr.contains("is not a valid Flatpak app id"), "\(badID)")
        #expect(Self.ruleFiles(sandbox).isEmpty)
    }
}
