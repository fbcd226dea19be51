import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `keychaind --ssh-agent`: the agent on `$XDG_RUNTIME_DIR/keychain/ssh-agent` with the login
/// keychain's keys, a `confirm` key asked about through pinentry, and nothing signed while the
/// keychain is locked.
@Suite struct SSHAgentDaemonTests {
    @Test func keychaindServesTheSSHAgent() throws {
        let sandbox = try DaemonSandbox(nil)
        let pinentry = ScriptedPinentry(answer: nil)
        try sandbox.start(arguments: ["--ssh-agent"], extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": try pinentry.install(in: sandbox.home).path])
        let socket = sandbox.home.appendingPathComponent("keychain/ssh-agent").path
        var info = stat()
        #expect(stat(sandbox.home.appendingPathComponent("keychain").path, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(sandbox.log)")
        #expect(stat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_mode & 0o777 == 0o600)
        let agent = ["SSH_AUTH_SOCK": socket]

        let key = sandbox.home.appendingPathComponent("id_ecdsa").path
        #expect(try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ecdsa", "-N", "", "-C", "daemon-key", "-f", key]).status == 0)
        let added = try sandbox.run("/usr/bin/ssh-add", ["-c", key], environment: agent)
        #expect(added.status == 0, "\(added)\n\(sandbox.log)")
        try FileManager.default.removeItem(atPath: key)

        let message = sandbox.home.appendingPathComponent("message").path
        try "signed by keychaind\n".write(toFile: message, atomically: true, encoding: .utf8)
        func sign() throws -> ClientResult {
            try? FileManager.default.removeItem(atPath: message + ".sig")
            return try sandbox.run("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", key + ".pub", "-n", "file", message], environment: agent)
        }
        let confirmed = try sign()
        #expect(confirmed.status == 0, "\(confirmed)\n\(sandbox.log)")
        #expect(pinentry.heard(in: sandbox.home).contains("CONFIRM"))
        #expect(pinentry.heard(in: sandbox.home).contains { $0.hasPrefix("SETDESC") && $0.contains("daemon-key") })
        pinentry.setConfirms(false, in: sandbox.home)
        #expect(try sign().status != 0)
        pinentry.setConfirms(true, in: sandbox.home)

        #expect(try sandbox.keychainctl(["set-keychain-password", "-p", "pw"]).status == 0)
        #expect(try sandbox.keychainctl(["lock-keychain"]).status == 0)
        #expect(try sign().status != 0)
        #expect(try sandbox.keychainctl(["unlock-keychain", "-p", "pw"]).status == 0)
        #expect(try sign().status == 0, "\(sandbox.log)")

        #expect(sandbox.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket outlived keychaind")
        // The key lives in the keychain, not in the daemon: a new keychaind offers it again.
        try sandbox.start(arguments: ["--ssh-agent"], extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": try pinentry.install(in: sandbox.home).path])
        let listed = try sandbox.run("/usr/bin/ssh-add", ["-l"], environment: agent)
        #expect(listed.status == 0 && listed.stdout.contains("daemon-key"), "\(listed)\n\(sandbox.log)")
        #expect(sandbox.stop() == 0)
    }
}
