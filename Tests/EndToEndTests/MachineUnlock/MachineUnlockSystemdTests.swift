import Foundation
import Testing

/// `seal-keychain --with systemd-creds` and `unlock-keychain --sealed` with the real
/// systemd-creds (host key in the sandbox), including a unit's view of it: no systemd runs as
/// PID 1 in the test container, so what `LoadCredentialEncrypted=` does at a unit's start
/// (decrypt the credential into `$CREDENTIALS_DIRECTORY`) is done by `systemd-creds decrypt`
/// into a private folder, and keychainctl is run with `CREDENTIALS_DIRECTORY` pointing there.
@Suite(.enabled(if: MachineUnlockTools.hasSystemdCreds || MachineUnlockTools.isCI,
                "systemd-creds is not installed (Debian: systemd); CI installs it"))
struct MachineUnlockSystemdTests {
    /// A locked keychain with password `pw` holding `guarded` = `inside` (class A), sealed with
    /// the sandbox's host key as `keychain-unlock`.
    static func sealedKeychain(_ sandbox: CLISandbox, _ key: HostCredentialKey, name: String = "locked") throws -> String {
        let path = sandbox.path("\(name).keychain-db")
        try #require(try sandbox.run(["create-keychain", "-p", "pw", path]).status == 0)
        try sandbox.addGeneric(account: "alice", service: "guarded", password: "inside", extra: [path])
        let seal = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--password-fd", "-", path],
                                   stdin: "pw\n", environment: key.environment)
        try #require(seal.status == 0, "\(seal)")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        return path
    }

    /// Unlocks with `unlock` and reads the class A item in the same process (so the result
    /// does not depend on the kernel keyring sharing the unlock between processes).
    static func unlockAndRead(_ sandbox: CLISandbox, _ path: String, _ unlock: String, environment: [String: String] = [:]) throws -> CLIResult {
        try sandbox.run(["-i"], stdin: "\(unlock) \(path)\nfind-generic-password -s guarded -w \(path)\n", environment: environment)
    }

    /// Runs the unlock command alone, for its exit status and message.
    static func unlockOnly(_ sandbox: CLISandbox, _ path: String, _ unlock: String, environment: [String: String] = [:]) throws -> CLIResult {
        try sandbox.run(unlock.split(separator: " ").map(String.init) + [path], environment: environment)
    }

    static func isLocked(_ sandbox: CLISandbox, _ path: String) throws -> Bool {
        try sandbox.run(["show-keychain-info", "--locked-status", path]).status == 36
    }

    /// What systemd does for `LoadCredentialEncrypted=NAME:FILE` at a unit's start.
    static func emulateUnitCredentials(_ sandbox: CLISandbox, _ key: HostCredentialKey, file: String, name: String) throws -> URL {
        let folder = URL(fileURLWithPath: sandbox.path("credentials-\(UUID().uuidString)"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let decrypt = try MachineUnlockTools.run("systemd-creds", ["decrypt", "--name=\(name)", file, folder.appendingPathComponent(name).path],
                                                 environment: key.environment)
        try #require(decrypt.status == 0, "\(decrypt)")
        return folder
    }

    @Test("Sealed with systemd-creds: unlock-keychain --sealed unlocks without a password; show-keychain-info lists the seal; neither the password nor the key is in the record or the credential")
    func roundTrip() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let credentialFile = sandbox.path("locked.keychain-unlock.cred")
        let attributes = try FileManager.default.attributesOfItem(atPath: credentialFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("seal:       keychain-unlock (systemd-creds, key host, credential \(credentialFile); made "), "\(info)")
        #expect(!info.stdout.contains("stale"))
        #expect(try Self.isLocked(sandbox, path))
        // Without the host key the seal does not open, and nothing changes.
        let other = try HostCredentialKey(sandbox, name: "other.secret")
        let wrongKey = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: other.environment)
        #expect(wrongKey.status != 0, "\(wrongKey)")
        #expect(wrongKey.stderr.contains("systemd-creds could not decrypt the seal 'keychain-unlock'"), "\(wrongKey)")
        #expect(wrongKey.stderr.contains("errSecNotAvailable"), "\(wrongKey)")
        #expect(try Self.isLocked(sandbox, path))
        let unlocked = try Self.unlockAndRead(sandbox, path, "unlock-keychain --sealed", environment: key.environment)
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.stdout == "inside\n")
        // The sealed bytes are ciphertext: the password appears neither in the file nor in the credential.
        for file in [path, credentialFile] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("pw\n".utf8)) == nil && bytes.range(of: Data("SKUK".utf8)) == nil, "\(file)")
        }
    }

    @Test("A unit's view: the key systemd decrypts into $CREDENTIALS_DIRECTORY (emulated with systemd-creds decrypt) unlocks with no host key at hand, and so does --credential FILE")
    func unitCredentialsDirectory() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let folder = try Self.emulateUnitCredentials(sandbox, key, file: sandbox.path("locked.keychain-unlock.cred"), name: "keychain-unlock")
        // No usable host key: only the credentials folder can unlock it.
        let noHostKey = ["SYSTEMD_CREDENTIAL_SECRET": sandbox.path("absent.secret")]
        let fromFolder = try Self.unlockAndRead(sandbox, path, "unlock-keychain --sealed",
                                                environment: noHostKey.merging(["CREDENTIALS_DIRECTORY": folder.path]) { $1 })
        #expect(fromFolder.status == 0, "\(fromFolder)")
        #expect(fromFolder.stdout == "inside\n")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let fromFile = try Self.unlockAndRead(sandbox, path, "unlock-keychain --seal keychain-unlock --credential \(folder.path)/keychain-unlock",
                                              environment: noHostKey)
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.stdout == "inside\n")
    }

    @Test("A password change makes the seal stale: listed as stale, it refuses to unlock (exit 51, never a wrong unlock), also from an old unit credential; sealing again with --replace works")
    func staleAfterPasswordChange() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let oldCredentials = try Self.emulateUnitCredentials(sandbox, key, file: sandbox.path("locked.keychain-unlock.cred"), name: "keychain-unlock")
        let change = try sandbox.run(["set-keychain-password", "-o", "pw", "-p", "pw2", path])
        #expect(change.status == 0, "\(change)")
        #expect(change.stderr.contains("the seals keychain-unlock were made for the old password and are now stale"), "\(change)")
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("stale: made for an earlier password"), "\(info)")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        let stale = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: key.environment)
        #expect(stale.status == 51, "\(stale)")
        #expect(stale.stderr.contains("is stale"), "\(stale)")
        let oldUnit = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed",
                                             environment: key.environment.merging(["CREDENTIALS_DIRECTORY": oldCredentials.path]) { $1 })
        #expect(oldUnit.status == 51, "\(oldUnit)")
        #expect(try Self.isLocked(sandbox, path))
        let again = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--password-fd", "-", path],
                                    stdin: "pw2\n", environment: key.environment)
        #expect(again.status == 45, "without --replace the name is taken: \(again)")
        let replaced = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--replace", "--password-fd", "-", path],
                                       stdin: "pw2\n", environment: key.environment)
        #expect(replaced.status == 0, "\(replaced)")
        let unlocked = try Self.unlockAndRead(sandbox, path, "unlock-keychain --sealed", environment: key.environment)
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(unlocked.stdout == "inside\n")
    }

    @Test("Removing the password is refused while a seal exists (the password stays); --force removes it and the seals")
    func passwordRemovalNeedsForce() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let refused = try sandbox.run(["set-keychain-password", "-o", "pw", "-p", "", path])
        #expect(refused.status == 206, "\(refused)")
        #expect(refused.stderr.contains("the keychain has seals (keychain-unlock)"), "\(refused)")
        #expect(refused.stderr.contains("--force"), "\(refused)")
        #expect(try Self.isLocked(sandbox, path), "the password is still there")
        let forced = try sandbox.run(["set-keychain-password", "--force", "-o", "pw", "-p", "", path])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.stderr.contains("removed the seals keychain-unlock"), "\(forced)")
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("never locks"), "\(info)")
        #expect(!info.stdout.contains("seal:"), "\(info)")
        #expect(try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path]).stdout == "inside\n")
    }

    @Test("Foreign, damaged and planted seals: a clear error (exit 93 or 53), the keychain still locked and its password still good")
    func damagedAndForeign() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let otherPath = try Self.sealedKeychain(sandbox, key, name: "other")
        // Another keychain's unit credential.
        let otherCredentials = try Self.emulateUnitCredentials(sandbox, key, file: sandbox.path("other.keychain-unlock.cred"), name: "keychain-unlock")
        let foreign = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed --credential \(otherCredentials.path)/keychain-unlock")
        #expect(foreign.status == 93, "\(foreign)")
        #expect(foreign.stderr.contains("belongs to another keychain"), "\(foreign)")
        // Junk where the key should be.
        try Data(repeating: 0x41, count: 53).write(to: URL(fileURLWithPath: sandbox.path("junk")))
        let junk = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed --credential \(sandbox.path("junk"))")
        #expect(junk.status == 93, "\(junk)")
        #expect(junk.stderr.contains("not a swift-keychain unlock key"), "\(junk)")
        // A damaged encrypted credential: systemd refuses it.
        var credential = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("locked.keychain-unlock.cred")))
        credential[credential.count / 2] = credential[credential.count / 2] == 0x41 ? 0x42 : 0x41
        try credential.write(to: URL(fileURLWithPath: sandbox.path("damaged.cred")))
        let damaged = try MachineUnlockTools.run("systemd-creds", ["decrypt", "--name=keychain-unlock", sandbox.path("damaged.cred"), "-"],
                                                 environment: key.environment)
        #expect(damaged.status != 0, "systemd-creds itself refuses the damaged credential")
        // The seal record changed in the file by someone without the device key.
        let sqlite = try #require(MachineUnlockTools.find("sqlite3"))
        // One byte changed, whatever it was (a byte already 0 would make setting 0 a no-op).
        let planted = try sandbox.run([path, "UPDATE settings SET value = substr(value, 1, 40) || CASE WHEN substr(value, 41, 1) = x'00' THEN x'01' ELSE x'00' END || substr(value, 42) WHERE name = 'seal/keychain-unlock'"],
                                      executable: sqlite)
        try #require(planted.status == 0, "\(planted)")
        let tampered = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: key.environment)
        #expect(tampered.status == 93, "\(tampered)")
        #expect(tampered.stderr.contains("was not written for this keychain and device key"), "\(tampered)")
        let info = try sandbox.run(["show-keychain-info", path])
        #expect(info.stdout.contains("seals:      damaged"), "\(info)")
        #expect(try Self.isLocked(sandbox, path))
        // The damaged seal can be removed; the password still unlocks; the other keychain is untouched.
        #expect(try sandbox.run(["remove-seal", "keychain-unlock", path]).status == 0)
        let byPassword = try Self.unlockAndRead(sandbox, path, "unlock-keychain -p pw")
        #expect(byPassword.stdout == "inside\n", "\(byPassword)")
        let other = try Self.unlockAndRead(sandbox, otherPath, "unlock-keychain --sealed", environment: key.environment)
        #expect(other.status == 0 && other.stdout == "inside\n", "\(other)")
    }

    @Test("remove-seal removes the record and its credential file; unknown names exit 44; a keychain without a password has nothing to seal")
    func removeAndRefusals() throws {
        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        let path = try Self.sealedKeychain(sandbox, key)
        let credentialFile = sandbox.path("locked.keychain-unlock.cred")
        #expect(try sandbox.run(["remove-seal", "nope", path]).status == 44)
        let removed = try sandbox.run(["remove-seal", "keychain-unlock", path])
        #expect(removed.status == 0, "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: credentialFile))
        #expect(!(try sandbox.run(["show-keychain-info", path]).stdout.contains("seal:")))
        let none = try Self.unlockOnly(sandbox, path, "unlock-keychain --sealed", environment: key.environment)
        #expect(none.status == 44, "\(none)")
        #expect(try Self.isLocked(sandbox, path))
        let plain = sandbox.path("plain.keychain-db")
        try #require(try sandbox.run(["create-keychain", plain]).status == 0)
        let nothing = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", plain], environment: key.environment)
        #expect(nothing.status == 1, "\(nothing)")
        #expect(nothing.stderr.contains("has no password, so there is no unlock key to seal"), "\(nothing)")
        let wrong = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--password-fd", "-", path],
                                    stdin: "nope\n", environment: key.environment)
        #expect(wrong.status == 51, "\(wrong)")
        #expect(!FileManager.default.fileExists(atPath: credentialFile), "nothing sealed with a wrong password")
        for bad in [["--with", "tpm2", "--output", "x"], ["--with", "systemd-creds", "--pcrs", "sha256:7"], ["--with", "nothing"],
                    ["--with", "tpm2", "--name", "../x"]] {
            #expect(try sandbox.run(["seal-keychain"] + bad + [path]).status == 2, "\(bad)")
        }
        #expect(try sandbox.run(["unlock-keychain", "--sealed", "-p", "pw", path]).status == 2)
        // A credential file that cannot be written leaves no seal naming it.
        let unwritable = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--output",
                                          sandbox.path("no-such-folder/cred"), "--password-fd", "-", path],
                                         stdin: "pw\n", environment: key.environment)
        #expect(unwritable.status == 1, "\(unwritable)")
        #expect(unwritable.stderr.contains("Choose a writable place with --output"), "\(unwritable)")
        #expect(!(try sandbox.run(["show-keychain-info", path]).stdout.contains("seal:")))
    }
}

/// The example unit in dist/systemd, run as far as a container without systemd allows: its
/// credential ID must be the name seal-keychain gives the credential, and its ExecStart= line,
/// run with the credential decrypted into `$CREDENTIALS_DIRECTORY`, must unlock.
@Suite(.enabled(if: MachineUnlockTools.hasSystemdCreds || MachineUnlockTools.isCI,
                "systemd-creds is not installed (Debian: systemd); CI installs it"))
struct MachineUnlockExampleUnitTests {
    static let repository = ProofSupport.packageRoot

    static func unitText() throws -> String {
        try String(contentsOf: repository.appendingPathComponent("dist/systemd/keychain-unlock.service.in"), encoding: .utf8)
    }

    static func unitLines() throws -> [String] {
        try unitText().split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }

    @Test("systemd-analyze verify accepts the example unit, with its placeholders filled in as build-deb.sh fills them")
    func unitVerifies() throws {
        let sandbox = try CLISandbox()
        let unit = try Self.unitText().replacingOccurrences(of: "@KEYCHAINCTL@", with: try CLIBinary.url().path)
            .replacingOccurrences(of: "@DOCS@", with: Self.repository.appendingPathComponent("docs").path)
        let file = sandbox.path("keychain-unlock.service")
        try unit.write(toFile: file, atomically: true, encoding: .utf8)
        let verify = try MachineUnlockTools.run("systemd-analyze", ["verify", file])
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stderr.isEmpty, "\(verify)")
    }

    @Test("dist/systemd/keychain-unlock.service.in: LoadCredentialEncrypted= names the credential seal-keychain makes, and its ExecStart= unlocks the default keychain from $CREDENTIALS_DIRECTORY")
    func exampleUnit() throws {
        let lines = try Self.unitLines()
        let load = try #require(lines.first { $0.hasPrefix("LoadCredentialEncrypted=") })
        let credential = load.dropFirst("LoadCredentialEncrypted=".count).split(separator: ":", maxSplits: 1).map(String.init)
        try #require(credential.count == 2)
        let exec = try #require(lines.first { $0.hasPrefix("ExecStart=") })
        let words = exec.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
        try #require(words.first == "@KEYCHAINCTL@")

        let sandbox = try CLISandbox()
        let key = try HostCredentialKey(sandbox)
        try sandbox.addGeneric(account: "alice", service: "guarded", password: "inside")
        try #require(try sandbox.run(["set-keychain-password", "-p", "pw"]).status == 0)
        let file = sandbox.path("credstore/\(credential[0])")
        try FileManager.default.createDirectory(atPath: sandbox.path("credstore"), withIntermediateDirectories: true)
        let seal = try sandbox.run(["seal-keychain", "--with", "systemd-creds", "--systemd-key", "host", "--output", file, "--password-fd", "-"],
                                   stdin: "pw\n", environment: key.environment)
        try #require(seal.status == 0, "\(seal)")
        #expect(seal.stdout.contains("unit: LoadCredentialEncrypted=\(credential[0]):\(file)"), "\(seal)")
        try #require(try sandbox.run(["lock-keychain"]).status == 0)
        let folder = try MachineUnlockSystemdTests.emulateUnitCredentials(sandbox, key, file: file, name: credential[0])
        let unit = try sandbox.run(["-i"], stdin: words.dropFirst().joined(separator: " ") + "\nfind-generic-password -s guarded -w\n",
                                   environment: ["CREDENTIALS_DIRECTORY": folder.path, "SYSTEMD_CREDENTIAL_SECRET": sandbox.path("absent")])
        #expect(unit.status == 0, "\(unit)")
        #expect(unit.stdout == "inside\n")
    }
}
