import Foundation
import KeychainServices
import KeychainSSHAgent
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent driven by Debian's OpenSSH: `ssh-add` adds, lists, deletes and locks, `ssh-keygen
/// -Y sign` signs through it and `ssh-keygen -Y verify` checks what it signed.
@Suite struct OpenSSHClientTests {
    /// The SSH key items in the sandbox's keychain: (tag, label) of each.
    static func storedKeys(_ sandbox: AgentSandbox) -> [(tag: String, label: String)] {
        sandbox.keychain.run {
            var result: CFTypeRef?
            let status = SecItemCopyMatching([kSecClass: kSecClassKey, kSecReturnAttributes: true,
                                              kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, &result)
            guard status == errSecSuccess, let items = result as? [NSDictionary] else { return [] }
            return items.map { item in
                (String(decoding: item[kSecAttrApplicationTag] as? Data ?? Data(), as: UTF8.self), item[kSecAttrLabel] as? String ?? "")
            }
        }
    }

    @Test func addListAndDeleteWithSSHAdd() throws {
        let sandbox = try AgentSandbox()
        let files = try SSHKeyKind.all.map { try sandbox.makeKey($0) }
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
        for file in files {
            let added = try sandbox.sshAdd([file.path])
            #expect(added.status == 0, "\(added)")
        }
        let listed = try sandbox.sshAdd(["-l"])
        #expect(listed.status == 0, "\(listed)")
        for kind in SSHKeyKind.all { #expect(listed.stdout.contains(kind.comment), "\(listed)") }
        // -L prints the public keys, which must be the ones ssh-keygen wrote.
        let publicKeys = try sandbox.sshAdd(["-L"])
        for file in files { #expect(publicKeys.stdout.contains(try sandbox.publicKey(of: file)), "\(publicKeys)") }
        // Each is a private key item of the keychain, tagged as an SSH key, labelled with its comment.
        let stored = Self.storedKeys(sandbox)
        #expect(stored.count == SSHKeyKind.all.count)
        #expect(Set(stored.map(\.label)) == Set(SSHKeyKind.all.map(\.comment)))
        #expect(stored.allSatisfy { $0.tag == SSHKeychainKeys.plainTag })
        // Adding the same key again replaces it rather than adding a second item.
        #expect(try sandbox.sshAdd([files[0].path]).status == 0)
        #expect(Self.storedKeys(sandbox).count == SSHKeyKind.all.count)

        let deleted = try sandbox.sshAdd(["-d", files[0].path])
        #expect(deleted.status == 0, "\(deleted)")
        let afterDelete = try sandbox.sshAdd(["-l"])
        #expect(!afterDelete.stdout.contains(SSHKeyKind.all[0].comment) && afterDelete.stdout.contains(SSHKeyKind.all[1].comment), "\(afterDelete)")
        #expect(Self.storedKeys(sandbox).count == SSHKeyKind.all.count - 1)
        // Deleting a key the agent does not hold fails.
        #expect(try sandbox.sshAdd(["-d", files[0].path]).status != 0)

        let cleared = try sandbox.sshAdd(["-D"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
        #expect(Self.storedKeys(sandbox).isEmpty)
    }

    @Test(arguments: SSHKeyKind.all)
    func signThroughTheAgentAndVerify(_ kind: SSHKeyKind) throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(kind)
        // Without the key in the agent, ssh-keygen has nothing to sign with (only the .pub is given).
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        // The private key file goes: only the keychain holds the key now.
        try FileManager.default.removeItem(at: file)
        let (signed, verified) = try sandbox.signAndVerify(with: file)
        #expect(signed.status == 0, "\(signed)")
        #expect(verified?.status == 0, "\(String(describing: verified))")
        #expect(verified?.stdout.contains("Good \"file\" signature for tester@example.com") == true, "\(String(describing: verified))")
    }

    @Test func otherKeysOfTheKeychainAreNotOffered() throws {
        let sandbox = try AgentSandbox()
        // An application's own permanent key, under its own tag.
        let made = sandbox.keychain.run {
            SecKeyCreateRandomKey([kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256,
                                   kSecAttrIsPermanent: true, kSecAttrApplicationTag: Data("com.example.app".utf8),
                                   kSecAttrLabel: "not for ssh"] as CFDictionary, nil)
        }
        #expect(made != nil)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
        #expect(try sandbox.sshAdd(["-D"]).status == 0)
        #expect(Self.storedKeys(sandbox).map(\.label).contains("not for ssh"))
    }

    /// A locked keychain: the key items cannot be read, so signing fails; unlocked, it works again.
    @Test func aLockedKeychainDoesNotSign() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa256)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        try sandbox.keychain.file.setPassword("keychain password", currentPassword: nil)
        sandbox.keychain.file.lock()
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(try sandbox.sshAdd(["-l"]).status != 0)
        try sandbox.keychain.file.unlock(password: "keychain password")
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
    }

    /// `ssh-add -x` / `-X`: a locked agent lists nothing and signs nothing until the same
    /// passphrase is given back; a wrong one leaves it locked.
    @Test func agentLockWithAPassphrase() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa256)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        func askpass(_ answer: String) throws -> [String: String] {
            let script = sandbox.home.appendingPathComponent("askpass-\(UUID().uuidString)")
            try "#!/bin/sh\necho '\(answer)'\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
            return ["SSH_ASKPASS": script.path, "SSH_ASKPASS_REQUIRE": "force"]
        }
        let locked = try sandbox.sshAdd(["-x"], environment: try askpass("lock phrase"))
        #expect(locked.status == 0, "\(locked)")
        #expect(sandbox.agent.isLocked)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(try sandbox.sshAdd([file.path]).status != 0)
        #expect(try sandbox.sshAdd(["-X"], environment: try askpass("wrong phrase")).status != 0)
        #expect(sandbox.agent.isLocked)
        let unlocked = try sandbox.sshAdd(["-X"], environment: try askpass("lock phrase"))
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains(SSHKeyKind.ecdsa256.comment))
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
    }

    /// `ssh-add -c`: each signature asks first, and a refusal fails it.
    @Test func aConfirmKeyAsksBeforeEachSignature() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa384)
        #expect(try sandbox.sshAdd(["-c", file.path]).status == 0)
        #expect(OpenSSHClientTests.storedKeys(sandbox).map(\.tag) == [SSHKeychainKeys.confirmTag])
        sandbox.desk.answer(false)
        #expect(try sandbox.signAndVerify(with: file).sign.status != 0)
        #expect(sandbox.desk.questions == [SSHKeyKind.ecdsa384.comment])
        sandbox.desk.answer(true)
        #expect(try sandbox.signAndVerify(with: file).verify?.status == 0)
        #expect(sandbox.desk.questions.count == 2)
    }

    /// `ssh-add -t`: the key carries its expiry in the keychain and is deleted once it is past.
    @Test func aKeyWithALifetimeExpires() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.ecdsa256)
        let added = try sandbox.sshAdd(["-t", "3600", file.path])
        #expect(added.status == 0, "\(added)")
        let keys = SSHKeychainKeys(context: sandbox.keychain.context)
        let entry = try #require(try keys.entries().first)
        let expiry = try #require(entry.expiry)
        #expect(abs(expiry.timeIntervalSinceNow - 3600) < 600)
        // An hour and a bit later (as the keychain is asked): gone, item and all.
        #expect(try keys.entries(now: Date().addingTimeInterval(3700)).isEmpty)
        #expect(OpenSSHClientTests.storedKeys(sandbox).isEmpty)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
    }
}

/// The folder's and socket's modes keep other users out; `SO_PEERCRED` keeps them out even
/// where the modes would not. Here the modes are opened up on purpose, and `ssh-add` run as
/// `nobody` connects but is disconnected before it is answered.
@Suite(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getpwnam("nobody") != nil,
                "needs root and setpriv, to run a client as another user"))
struct OtherUserTests {
    @Test func theModesAreTightAndAnotherUserIsRefused() throws {
        let sandbox = try AgentSandbox()
        let folder = (sandbox.server.socketPath as NSString).deletingLastPathComponent
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(sandbox.server.socketPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))

        for path in [sandbox.keychain.directory.path, folder, sandbox.server.socketPath] { chmod(path, 0o777) }
        let nobody = try #require(getpwnam("nobody")).pointee
        let asNobody = try sandbox.run("/usr/bin/setpriv", ["--reuid=\(nobody.pw_uid)", "--regid=\(nobody.pw_gid)", "--clear-groups",
                                                            "/usr/bin/env", "--chdir=/", "HOME=/nonexistent", "/usr/bin/ssh-add", "-l"])
        #expect(asNobody.status != 0, "\(asNobody)")
        #expect(!asNobody.stdout.contains("The agent has no identities."), "\(asNobody)")
        // The agent hangs up at once: ssh-add then fails ("communication with agent failed"),
        // or is killed by SIGPIPE writing its request.
        // The agent goes on serving its own user.
        #expect(try sandbox.sshAdd(["-l"]).stdout.contains("The agent has no identities."))
    }
}
