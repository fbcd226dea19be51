import Foundation
import Testing

/// The Debian package and scripts/install.sh install the credential helpers as links to
/// keychainctl-full, which runs as the helper its name says: the same answers as the separately
/// built helpers, on the same items.
@Suite struct CredentialHelperLinkTests {
    /// A link named `name` to keychainctl-full, in a folder of the sandbox.
    static func link(_ name: String, in sandbox: CLISandbox) throws -> URL {
        let folder = sandbox.home.appendingPathComponent("linked-bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent(name)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try CLIBinary.fullURL())
        return link
    }

    @Test("keychainctl-full linked as git-credential-keychain is git's helper: what it stores, the built helper gets, and back")
    func gitThroughTheLink() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let linked = try Self.link("git-credential-keychain", in: runner.sandbox)
        let stored = try runner.run(linked, ["store"], stdin: Data("protocol=https\nhost=link.example\nusername=ann\npassword=via-link\n\n".utf8))
        #expect(stored.status == 0, "\(stored)")
        #expect(try runner.gitHelper("get", "protocol=https\nhost=link.example\n\n").stdout.contains("password=via-link\n"))
        #expect(try runner.gitHelper("store", "protocol=https\nhost=built.example\nusername=bo\npassword=via-built\n\n").status == 0)
        let got = try runner.run(linked, ["get"], stdin: Data("protocol=https\nhost=built.example\n\n".utf8))
        #expect(got.stdout.contains("password=via-built\n"), "\(got)")
        // Its usage is the helper's, not keychainctl's.
        let usage = try runner.run(linked, [])
        let builtUsage = try runner.run(try HelperRunner.git(), [])
        #expect(usage.status == builtUsage.status && usage.stderr == builtUsage.stderr, "\(usage)")
        #expect(!usage.stdout.contains("add-generic-password") && !usage.stderr.contains("add-generic-password"), "\(usage)")
    }

    @Test("keychainctl-full linked as docker-credential-keychain is docker's helper, on the items the built helper stores")
    func dockerThroughTheLink() throws {
        let runner = HelperRunner(sandbox: try CLISandbox())
        let linked = try Self.link("docker-credential-keychain", in: runner.sandbox)
        let input = #"{"ServerURL":"https://registry.link.example","Username":"cy","Secret":"tok-link"}"#
        #expect(try runner.run(linked, ["store"], stdin: Data(input.utf8)).status == 0)
        let got = try runner.dockerHelper("get", "https://registry.link.example\n")
        #expect(got.stdout.contains(#""Secret":"tok-link""#), "\(got)")
        let listed = try runner.run(linked, ["list"])
        #expect(listed.stdout == (try runner.dockerHelper("list")).stdout, "\(listed)")
    }
}
