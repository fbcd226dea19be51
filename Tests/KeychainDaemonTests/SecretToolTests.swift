import Foundation
import Testing

/// `secret-tool` (Debian's libsecret-tools) against keychaind on a private bus, step by step as
/// libsecret's own tool test runs it, and compared with gnome-keyring-daemon running the same
/// steps: the same outputs, item for item, but for item ids and times.
@Suite struct SecretToolTests {
    /// libsecret's tool test sequence: store twice, lookup, search, clear.
    static func libsecretSequence(_ sandbox: DaemonSandbox) throws -> [String] {
        var transcript: [String] = []
        func record(_ step: String, _ result: ClientResult) {
            transcript.append("\(step): exit \(result.status)\n\(normalised(result.stdout))")
        }
        record("store 1", try sandbox.secretTool(["store", "--label", "label1", "foo", "bar"], stdin: "test1\n"))
        record("store 2", try sandbox.secretTool(["store", "--label", "label2", "foo", "bar", "apple", "orange"], stdin: "test2\n"))
        record("lookup unique", try sandbox.secretTool(["lookup", "apple", "orange"]))
        record("search all", try sandbox.secretTool(["search", "--all", "foo", "bar"]))
        record("store again replaces", try sandbox.secretTool(["store", "--label", "label1b", "foo", "bar"], stdin: "test1b\n"))
        record("search after replace", try sandbox.secretTool(["search", "--all", "foo", "bar"]))
        record("clear", try sandbox.secretTool(["clear", "apple", "orange"]))
        record("lookup cleared", try sandbox.secretTool(["lookup", "apple", "orange"]))
        record("lookup left", try sandbox.secretTool(["lookup", "foo", "bar"]))
        record("lookup missing", try sandbox.secretTool(["lookup", "no", "such"]))
        return transcript
    }

    /// Item paths and times differ between providers by design; everything else must not.
    static func normalised(_ output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("[") && line.hasSuffix("]") { return "[item]" }
            if line.hasPrefix("created = ") { return "created = <time>" }
            if line.hasPrefix("modified = ") { return "modified = <time>" }
            return String(line)
        }.joined(separator: "\n")
    }

    @Test func libsecretSequenceGivesWhatGnomeKeyringGives() throws {
        let ours = try Self.libsecretSequence(DaemonSandbox(.keychaind))
        let theirs = try Self.libsecretSequence(DaemonSandbox(.gnomeKeyring))
        #expect(ours.count == theirs.count)
        for (mine, peer) in zip(ours, theirs) {
            #expect(mine == peer)
        }
    }

    @Test func storedSecretIsAKeychainItemAndSurvivesARestart() throws {
        let sandbox = try DaemonSandbox()
        let stored = try sandbox.secretTool(["store", "--label", "Mail", "service", "imap.example.com", "username", "ann"], stdin: "hunter2")
        #expect(stored.status == 0, "\(stored)")
        // The item is the keychain's: keychainctl finds it by service and account.
        let found = try sandbox.keychainctl(["find-generic-password", "-s", "imap.example.com", "-a", "ann", "-w"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "hunter2\n")
        #expect(sandbox.stop() == 0, "keychaind did not exit cleanly on SIGTERM:\n\(sandbox.log)")
        try sandbox.start()
        let lookup = try sandbox.secretTool(["lookup", "service", "imap.example.com", "username", "ann"])
        #expect(lookup.status == 0, "\(lookup)")
        #expect(lookup.stdout == "hunter2")
    }

    @Test func secretsNeverReachTheLog() throws {
        let sandbox = try DaemonSandbox()
        sandbox.stop()
        try sandbox.start(arguments: ["--log-level", "trace"])
        let secret = "do-not-log-\(UUID().uuidString)"
        #expect(try sandbox.secretTool(["store", "--label", "L", "k", "v"], stdin: secret).status == 0)
        #expect(try sandbox.secretTool(["lookup", "k", "v"]).stdout == secret)
        sandbox.stop()
        #expect(!sandbox.log.contains(secret))
        #expect(sandbox.log.contains("serving"))
    }
}
