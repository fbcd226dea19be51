import Foundation
import KeychainTestSupport
import Testing

/// keychaind's SSH agent asking a person at a real terminal (pinentry-tty in a tmux pane): a
/// `confirm` key asks before each signature and a refusal fails it; a key made with
/// `keychainctl create-ssh-key --user-presence` asks for the keychain password at each
/// signature, and a wrong password or a cancel fails it.
@Suite struct SSHAgentTerminalPromptTests {
    static let password = "agent keychain password"
    /// `ssh-keygen` as `/proc/PID/exe` names it.
    static let keygen = URL(fileURLWithPath: "/usr/bin/ssh-keygen").resolvingSymlinksInPath().path

    /// A keychaind serving the SSH agent whose prompts go to a tmux pane, and the environment
    /// that points OpenSSH's programs at its socket.
    static func agentWithTerminal() throws -> (DaemonSandbox, TmuxSession, [String: String]) {
        try LockedKeychainTests.requirePrompter()
        let sandbox = try DaemonSandbox(nil)
        let terminal = try TmuxSession(socket: sandbox.home.appendingPathComponent("tmux.sock").path, session: "prompts",
                                       shellLine: "sleep 600")
        try sandbox.start(arguments: ["--ssh-agent"],
                          extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": "/usr/bin/pinentry-tty",
                                             "SWIFT_KEYCHAIN_PINENTRY_TTY": try terminal.paneTerminal(), "TERM": "xterm"])
        return (sandbox, terminal, ["SSH_AUTH_SOCK": sandbox.home.appendingPathComponent("keychain/ssh-agent").path])
    }

    /// `ssh-keygen -Y sign` of a fresh message with the key whose public half is `publicKey`,
    /// run on its own thread so that the test can answer the prompt meanwhile.
    static func signInBackground(_ sandbox: DaemonSandbox, publicKey: String, agent: [String: String]) throws -> Pending<ClientResult?> {
        let message = sandbox.home.appendingPathComponent("message").path
        try "signed through a prompt\n".write(toFile: message, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: message + ".sig")
        return Thread.runDetached {
            try? sandbox.run("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", publicKey, "-n", "file", message], environment: agent)
        }
    }

    @Test func aConfirmKeyAsksAtTheTerminalAndARefusalFailsTheSignature() throws {
        let (sandbox, terminal, agent) = try Self.agentWithTerminal()
        defer { terminal.close() }
        let key = sandbox.home.appendingPathComponent("id_ecdsa").path
        #expect(try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ecdsa", "-N", "", "-C", "asks-first", "-f", key]).status == 0)
        let added = try sandbox.run("/usr/bin/ssh-add", ["-c", key], environment: agent)
        try #require(added.status == 0, "\(added)\n\(sandbox.log)")
        try FileManager.default.removeItem(atPath: key)

        let refused = try Self.signInBackground(sandbox, publicKey: key + ".pub", agent: agent)
        let prompt = try terminal.waitFor("Deny")
        // It names who asks, as the kernel shows the program, and which key.
        #expect(prompt.contains("The program \(Self.keygen)"), "\(prompt)")
        #expect(prompt.contains("\u{201C}asks-first\u{201D} (ecdsa-sha2-nistp256)"), "\(prompt)")
        #expect(prompt.contains("Allow"))
        terminal.send("d")
        let refusal = refused.wait().flatMap { $0 }
        #expect(refusal?.status != 0, "\(String(describing: refusal))")

        let allowed = try Self.signInBackground(sandbox, publicKey: key + ".pub", agent: agent)
        try terminal.waitFor("Deny", occurrences: 2)
        terminal.send("a")
        let signature = allowed.wait().flatMap { $0 }
        #expect(signature?.status == 0, "\(String(describing: signature))\n\(sandbox.log)")
        #expect(sandbox.daemon?.isRunning == true, "keychaind died:\n\(sandbox.log)")
    }

    @Test func aUserPresenceKeyAsksForTheKeychainPasswordAtEachSignature() throws {
        let (sandbox, terminal, agent) = try Self.agentWithTerminal()
        defer {
            terminal.close()
            _ = try? sandbox.keychainctl(["lock-keychain"])
        }
        #expect(try sandbox.keychainctl(["set-keychain-password", "-p", Self.password]).status == 0)
        let created = try sandbox.keychainctl(["create-ssh-key", "--type", "ecdsa", "--user-presence", "--comment", "guarded"])
        try #require(created.status == 0, "\(created)")
        let publicKey = sandbox.home.appendingPathComponent("guarded.pub").path
        try created.stdout.write(toFile: publicKey, atomically: true, encoding: .utf8)
        // Listing reads no private key, so it asks nothing.
        let listed = try sandbox.run("/usr/bin/ssh-add", ["-l"], environment: agent)
        #expect(listed.status == 0 && listed.stdout.contains("guarded"), "\(listed)\n\(sandbox.log)")

        let first = try Self.signInBackground(sandbox, publicKey: publicKey, agent: agent)
        let prompt = try terminal.waitFor("Password:")
        #expect(prompt.contains("The program \(Self.keygen)"), "\(prompt)")
        #expect(prompt.contains("\u{201C}guarded\u{201D} to sign, which needs your keychain password"), "\(prompt)")
        terminal.type("not the password")
        try terminal.waitFor("Wrong password")
        terminal.type(Self.password)
        let signed = first.wait().flatMap { $0 }
        #expect(signed?.status == 0, "\(String(describing: signed))\n\(sandbox.log)")

        // The key the agent now holds parsed still asks: presence is per signature.
        let second = try Self.signInBackground(sandbox, publicKey: publicKey, agent: agent)
        // The third "Password:" on the screen: the first signature showed two (the wrong try was
        // asked again). Pressed before the new prompt is up, the cancel would go nowhere.
        try terminal.waitFor("Password:", occurrences: 3)
        terminal.press("C-d")  // end of input at pinentry-tty's prompt: cancel
        let cancelled = second.wait().flatMap { $0 }
        #expect(cancelled?.status != 0, "\(String(describing: cancelled))")
        #expect(!sandbox.log.contains(Self.password))
        #expect(sandbox.daemon?.isRunning == true, "keychaind died:\n\(sandbox.log)")
    }
}
