import Foundation
import KeychainServices
@testable import KeychainSSHAgent
import Testing

/// keychainctl's SSH commands, the built `keychainctl-full` run on the sandbox's keychain: keys
/// it imports or creates are offered by the agent over the same keychain (listed by `ssh-add -l`,
/// signing for `ssh-keygen -Y sign`), and `keychainctl ssh-add --use-keychain` feeds Debian's
/// own `ssh-agent` with the passphrase kept in the keychain.
@Suite struct KeychainctlSSHTests {
    static let passphrase = "a passphrase for the file"

    @Test(arguments: [SSHKeyKind.ecdsa256, SSHKeyKind.rsa2048, SSHKeyKind.rsa1024, SSHKeyKind.ed25519])
    func importedKeyIsOfferedAndSigns(kind: SSHKeyKind) throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let file = try KeyFiles.make(kind, in: sandbox, passphrase: Self.passphrase, cipher: nil)
        let fingerprint = try Self.sshKeygenFingerprint(file, in: sandbox)

        let wrong = try Self.keychainctl(sandbox, ["import-ssh-key", file.path], stdin: "not the passphrase\n")
        #expect(wrong.status == 51, "\(wrong)")
        #expect(wrong.stderr.lowercased().contains("incorrect passphrase"), "\(wrong)")
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))

        let imported = try Self.keychainctl(sandbox, ["import-ssh-key", file.path, "--comment", "imported"], stdin: Self.passphrase + "\n")
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains(fingerprint) && imported.stdout.contains("imported"), "\(imported)")
        #expect(!imported.stdout.contains(Self.passphrase) && !imported.stderr.contains(Self.passphrase))

        let listed = try sandbox.sshAdd(["-l"])
        #expect(listed.status == 0 && listed.stdout.contains(fingerprint) && listed.stdout.contains("imported"), "\(listed)")
        let (sign, verify) = try sandbox.signAndVerify(with: file)
        #expect(sign.status == 0, "\(sign)")
        #expect(verify?.status == 0, "\(String(describing: verify))")

        // keychainctl's own listing prints what ssh-add prints.
        let ours = try Self.keychainctl(sandbox, ["list-ssh-keys"])
        #expect(ours.status == 0 && ours.stdout == listed.stdout, "\(ours)\n\(listed)")
        let oursPublic = try Self.keychainctl(sandbox, ["list-ssh-keys", "-L"])
        #expect(oursPublic.stdout == (try sandbox.sshAdd(["-L"])).stdout, "\(oursPublic)")
        #expect(oursPublic.stdout.contains(try sandbox.publicKey(of: file)))
    }

    @Test func importConfirmTagsTheKey() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: "", cipher: nil)
        let imported = try Self.keychainctl(sandbox, ["import-ssh-key", "--confirm", file.path])
        #expect(imported.status == 0, "\(imported)")
        #expect(OpenSSHClientTests.storedKeys(sandbox).map(\.tag) == [SSHKeychainKeys.confirmTag])
        let (sign, _) = try sandbox.signAndVerify(with: file)
        #expect(sign.status == 0 && sandbox.desk.questions == [SSHKeyKind.ecdsa256.comment], "\(sign)")
    }

    /// An SSH key is not extractable: keychainctl's exports refuse its private half and give
    /// its public half.
    @Test func importedKeyIsNotExported() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let file = try KeyFiles.make(.ed25519, in: sandbox, passphrase: "", cipher: nil)
        let imported = try Self.keychainctl(sandbox, ["import-ssh-key", "--comment", "kept", file.path])
        #expect(imported.status == 0, "\(imported)")
        let refused = try Self.keychainctl(sandbox, ["export-key", "-l", "kept"])
        #expect(refused.status != 0 && refused.stdout.isEmpty, "\(refused)")
        #expect(refused.stderr.contains("not extractable"), "\(refused)")
        let publicHalf = try Self.keychainctl(sandbox, ["export-key", "-l", "kept", "--public"])
        #expect(publicHalf.status == 0 && publicHalf.stdout.contains("BEGIN PUBLIC KEY"), "\(publicHalf)")
    }

    @Test func importRefusesADamagedFile() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: "", cipher: nil)
        var text = try String(contentsOf: file, encoding: .utf8)
        text = String(text.prefix(text.count / 2)) + "\n" + OpenSSHKeyFile.endLine + "\n"
        try KeyFiles.writePrivate(text, to: file)
        let refused = try Self.keychainctl(sandbox, ["import-ssh-key", file.path])
        #expect(refused.status == 87, "\(refused)")
        #expect(refused.stderr.contains("damaged"), "\(refused)")
        #expect(OpenSSHClientTests.storedKeys(sandbox).isEmpty)
    }

    /// The options, and the key type the public key line must name.
    static let creations: [([String], String)] = [
        ([], "ssh-ed25519"),
        (["--type", "ecdsa"], "ecdsa-sha2-nistp256"),
        (["--type", "ecdsa", "--bits", "384"], "ecdsa-sha2-nistp384"),
        (["--type", "rsa", "--bits", "2048"], "ssh-rsa"),
    ]

    @Test(arguments: creations)
    func createdKeySignsThroughTheAgent(options: [String], keyType: String) throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let created = try Self.keychainctl(sandbox, ["create-ssh-key", "--comment", "made in the keychain"] + options)
        #expect(created.status == 0, "\(created)")
        let line = created.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix(keyType + " "), "\(line)")
        #expect(line.hasSuffix(" made in the keychain"))
        // Only the public key exists outside the keychain: signing can only be the agent's.
        let file = sandbox.home.appendingPathComponent("created")
        try (line + "\n").write(to: URL(fileURLWithPath: file.path + ".pub"), atomically: true, encoding: .utf8)
        let (sign, verify) = try sandbox.signAndVerify(with: file)
        #expect(sign.status == 0, "\(sign)")
        #expect(verify?.status == 0, "\(String(describing: verify))")
        let listed = try sandbox.sshAdd(["-L"])
        #expect(listed.stdout.contains(line), "\(listed)")
    }

    @Test(arguments: [["--type", "rsa", "--bits", "1024"], ["--type", "ed25519", "--bits", "384"], ["--type", "ecdsa", "--bits", "255"]])
    func createRefusesASizeTheTypeDoesNotHave(options: [String]) throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let refused = try Self.keychainctl(sandbox, ["create-ssh-key"] + options)
        #expect(refused.status == 2, "\(refused)")
        #expect(OpenSSHClientTests.storedKeys(sandbox).isEmpty)
    }

    /// A key that asks for the keychain password at each use could never sign in a keychain
    /// that has none: refused, with the command that sets one, and nothing stored.
    @Test func userPresenceNeedsAKeychainPassword() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let refused = try Self.keychainctl(sandbox, ["create-ssh-key", "--user-presence"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("keychainctl set-keychain-password"), "\(refused)")
        #expect(OpenSSHClientTests.storedKeys(sandbox).isEmpty)
        try sandbox.keychain.file.setPassword("pw", currentPassword: nil)
        let created = try Self.keychainctl(sandbox, ["create-ssh-key", "--user-presence"])
        #expect(created.status == 0, "\(created)")
        #expect(OpenSSHClientTests.storedKeys(sandbox).count == 1)
    }

    @Test func listWithoutKeysExits44() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let listed = try Self.keychainctl(sandbox, ["list-ssh-keys"])
        #expect(listed.status == 44, "\(listed)")
    }

    /// `ssh-add --use-keychain` against Debian's own ssh-agent: the first run asks and stores the
    /// passphrase, the second asks nothing, a stale stored passphrase is asked again and replaced.
    @Test func sshAddUseKeychainWithOpenSSHAgent() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let agent = try OpenSSHAgentProcess(in: sandbox)
        defer { agent.stop() }
        let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: Self.passphrase, cipher: nil)
        let fingerprint = try Self.sshKeygenFingerprint(file, in: sandbox)
        let toAgent = ["SSH_AUTH_SOCK": agent.socket]

        let first = try Self.keychainctl(sandbox, ["ssh-add", "--use-keychain", file.path], stdin: Self.passphrase + "\n", environment: toAgent)
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("Passphrase stored in keychain: \(file.path)"), "\(first)")
        #expect(try sandbox.sshAdd(["-l"], environment: toAgent).stdout.contains(fingerprint))
        #expect(try Self.storedPassphrase(sandbox, path: file.path) == Self.passphrase)
        // The key went to ssh-agent, not into the keychain.
        #expect(OpenSSHClientTests.storedKeys(sandbox).isEmpty)

        #expect(try sandbox.sshAdd(["-D"], environment: toAgent).status == 0)
        #expect(!(try sandbox.sshAdd(["-l"], environment: toAgent)).stdout.contains(fingerprint))
        // Nothing on standard input: a prompt would find its end and fail.
        let second = try Self.keychainctl(sandbox, ["ssh-add", "--use-keychain", file.path], environment: toAgent)
        #expect(second.status == 0, "\(second)")
        #expect(!second.stderr.contains("Passphrase stored"), "\(second)")
        #expect(try sandbox.sshAdd(["-l"], environment: toAgent).stdout.contains(fingerprint))

        // A stored passphrase that no longer opens the file is asked again and replaced.
        try Self.storePassphrase(sandbox, "an old passphrase", path: file.path)
        #expect(try sandbox.sshAdd(["-D"], environment: toAgent).status == 0)
        let stale = try Self.keychainctl(sandbox, ["ssh-add", "--use-keychain", file.path], stdin: Self.passphrase + "\n", environment: toAgent)
        #expect(stale.status == 0 && stale.stderr.contains("no longer decrypts"), "\(stale)")
        #expect(try Self.storedPassphrase(sandbox, path: file.path) == Self.passphrase)
        #expect(try sandbox.sshAdd(["-l"], environment: toAgent).stdout.contains(fingerprint))

        // --load-keychain adds every file whose passphrase is stored, asking nothing.
        #expect(try sandbox.sshAdd(["-D"], environment: toAgent).status == 0)
        let loaded = try Self.keychainctl(sandbox, ["ssh-add", "--load-keychain"], environment: toAgent)
        #expect(loaded.status == 0, "\(loaded)")
        #expect(try sandbox.sshAdd(["-l"], environment: toAgent).stdout.contains(fingerprint))

        // A lifetime is passed on: ssh-agent drops the key after it.
        #expect(try sandbox.sshAdd(["-D"], environment: toAgent).status == 0)
        let brief = try Self.keychainctl(sandbox, ["ssh-add", "--use-keychain", "-t", "1", file.path], environment: toAgent)
        #expect(brief.status == 0, "\(brief)")
        #expect(try sandbox.sshAdd(["-l"], environment: toAgent).stdout.contains(fingerprint))
        sleep(2)
        #expect(!(try sandbox.sshAdd(["-l"], environment: toAgent)).stdout.contains(fingerprint))
    }

    @Test func sshAddWithoutAnAgentFails() throws {
        let sandbox = try AgentSandbox(keychainOnDisk: true)
        let file = try KeyFiles.make(.ecdsa256, in: sandbox, passphrase: "", cipher: nil)
        let missing = try Self.keychainctl(sandbox, ["ssh-add", file.path], environment: ["SSH_AUTH_SOCK": ""])
        #expect(missing.status == 1 && missing.stderr.contains("SSH_AUTH_SOCK is not set"), "\(missing)")
        let nobody = try Self.keychainctl(sandbox, ["ssh-add", file.path], environment: ["SSH_AUTH_SOCK": sandbox.home.appendingPathComponent("nothing-here").path])
        #expect(nobody.status == 1 && nobody.stderr.lowercased().contains("cannot connect to the agent"), "\(nobody)")
    }

    // MARK: - Helpers

    /// Runs the built keychainctl-full on the sandbox's keychain.
    static func keychainctl(_ sandbox: AgentSandbox, _ arguments: [String], stdin: String = "",
                            environment extra: [String: String] = [:]) throws -> ProgramResult {
        let environment = [
            "SWIFT_KEYCHAIN_PATH": sandbox.keychain.file.url.path,
            "SWIFT_KEYCHAIN_DEVICE_KEY_FILE": sandbox.keychain.deviceKeyFile.path,
            "XDG_CONFIG_HOME": sandbox.home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": sandbox.home.appendingPathComponent("data").path,
        ]
        return try sandbox.run(try BuiltProgram.url("keychainctl-full").path, arguments, stdin: stdin,
                               environment: environment.merging(extra) { $1 })
    }

    /// The fingerprint `ssh-keygen -l` prints for a key file's public key.
    static func sshKeygenFingerprint(_ file: URL, in sandbox: AgentSandbox) throws -> String {
        let listed = try sandbox.run("/usr/bin/ssh-keygen", ["-l", "-f", file.path + ".pub"])
        try #require(listed.status == 0, "\(listed)")
        return String(try #require(listed.stdout.split(separator: " ").dropFirst().first))
    }

    static func storedPassphrase(_ sandbox: AgentSandbox, path: String) throws -> String? {
        sandbox.keychain.run {
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassGenericPassword, kSecAttrService: "SSH", kSecAttrAccount: path,
                                              kSecReturnData: true, kSecReturnAttributes: true] as CFDictionary, &result)
            guard status == errSecSuccess, let item = result as? NSDictionary else { return nil }
            #expect(item[kSecAttrLabel] as? String == "SSH: \(path)")
            return (item[kSecValueData] as? Data).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static func storePassphrase(_ sandbox: AgentSandbox, _ passphrase: String, path: String) throws {
        let status = sandbox.keychain.run {
            SecItemUpdate([kSecClass: kSecClassGenericPassword, kSecAttrService: "SSH", kSecAttrAccount: path] as CFDictionary,
                          [kSecValueData: Data(passphrase.utf8)] as CFDictionary)
        }
        try #require(status == errSecSuccess)
    }
}

/// Debian's `ssh-agent`, in the foreground on a socket of the sandbox, for as long as the test.
final class OpenSSHAgentProcess {
    let socket: String
    private let process: Process

    init(in sandbox: AgentSandbox) throws {
        socket = sandbox.home.appendingPathComponent("openssh-agent.sock").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-agent")
        process.arguments = ["-D", "-a", socket]
        process.environment = sandbox.environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        try #require(FileManager.default.fileExists(atPath: socket), "ssh-agent made no socket")
    }

    /// SIGKILL rather than Process's SIGTERM: Foundation starts the child with the test
    /// thread's blocked signals, SIGTERM among them, and ssh-agent waits in ppoll with that
    /// mask, so it would never see a SIGTERM and the wait would never end.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Finds an executable product that `swift build` put beside the test bundle.
enum BuiltProgram {
    static func url(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.appendingPathComponent(name),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) is not built; run `swift build --build-tests` first")
    }
}
