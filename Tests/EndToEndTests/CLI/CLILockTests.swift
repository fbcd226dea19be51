import Foundation
import Testing

/// Keychain passwords, locking, settings and backups through keychainctl, run as a built binary.
/// Each test uses a keychain of its own, so unlock state (shared by the user's processes through
/// the kernel keyring) never crosses tests.
/// Keychain passwords, locking, settings and backups through keychainctl, run as a built binary.
/// Each test uses a keychain of its own, so unlock state never crosses tests. Steps that must
/// see an unlock made by an earlier step run in one `keychainctl -i` session (one process), so
/// they hold wherever the tests run; sharing an unlock between processes is tested on its own.
@Suite struct CLILockTests {
    /// A keychain holding one item readable only while unlocked, then given the password `pw`
    /// and locked.
    static func lockedKeychain(_ sandbox: CLISandbox) throws -> String {
        let path = sandbox.path("locked.keychain-db")
        try #require(try sandbox.run(["create-keychain", path]).status == 0)
        try sandbox.addGeneric(account: "alice", service: "guarded", password: "inside", extra: [path])
        let set = try sandbox.run(["set-keychain-password", "-p", "pw", path])
        try #require(set.status == 0, "\(set)")
        try #require(try sandbox.run(["lock-keychain", path]).status == 0)
        return path
    }

    /// Runs `lines` in one interactive session.
    static func session(_ sandbox: CLISandbox, _ lines: [String]) throws -> CLIResult {
        try sandbox.run(["-i"], stdin: lines.joined(separator: "\n") + "\n")
    }

    @Test("Reading from a locked keychain exits 36 (errSecInteractionNotAllowed) with a hint to unlock it")
    func lockedRead() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let locked = try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path])
        #expect(locked.status == 36)
        #expect(locked.stdout == "")
        #expect(locked.stderr.contains("errSecInteractionNotAllowed"))
        #expect(locked.stderr.contains("unlock-keychain"))
    }

    @Test("unlock-keychain -p makes the items readable, lock-keychain makes them unreadable again")
    func unlockThenLock() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let result = try Self.session(sandbox, [
            "unlock-keychain -p pw \(path)", "find-generic-password -s guarded -w \(path)",
            "lock-keychain \(path)", "find-generic-password -s guarded -w \(path)",
        ])
        #expect(result.stdout == "inside\n")
        #expect(result.stderr.hasSuffix("find-generic-password: returned -25308\n"))
        #expect(result.status == 36)
    }

    @Test("unlock-keychain in one process unlocks the keychain for the user's next process (shared through the kernel keyring)")
    func unlockIsSharedBetweenProcesses() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        #expect(try sandbox.run(["unlock-keychain", "-p", "pw", path]).status == 0)
        let read = try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path])
        #expect(read.status == 0, "\(read)")
        #expect(read.stdout == "inside\n")
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
    }

    @Test("unlock-keychain with a wrong password exits 51 (errSecAuthFailed) and leaves the keychain locked")
    func wrongPassword() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let result = try sandbox.run(["unlock-keychain", "-p", "wrong", path])
        #expect(result.status == 51)
        #expect(result.stderr.contains("errSecAuthFailed"))
        #expect(!result.stderr.contains("wrong"))
        #expect(try sandbox.run(["find-generic-password", "-s", "guarded", path]).status == 36)
    }

    @Test("unlock-keychain without -p reads the password from piped standard input")
    func unlockFromStdin() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let result = try sandbox.run(["unlock-keychain", "--keychain", path], stdin: "pw\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "")
        let wrong = try sandbox.run(["unlock-keychain", "--keychain", path], stdin: "not-it\n")
        #expect(wrong.status == 51)
    }

    @Test("unlock-keychain -u fails with errSecAuthFailed on a keychain that has a password")
    func unlockWithoutPassword() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        #expect(try sandbox.run(["unlock-keychain", "-u", path]).status == 51)
    }

    @Test("unlock-keychain on a keychain without a password succeeds without asking")
    func unlockPasswordless() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["unlock-keychain"], stdin: "")
        #expect(result.status == 0)
        #expect(result.stderr == "")
    }

    @Test("lock-keychain on a keychain without a password succeeds, says it cannot lock and names the command that sets a password")
    func lockPasswordless() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "open")
        let result = try sandbox.run(["lock-keychain"])
        #expect(result.status == 0)
        #expect(result.stderr == "keychainctl: \(sandbox.defaultKeychain.path) has no password, so it cannot lock: nothing locks it, "
            + "neither lock-keychain nor a timeout, until a password is set with `keychainctl set-keychain-password`.\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).stdout == "open\n")
    }

    @Test("lock-keychain -a locks every keychain in the keychains folder and the default keychain, and notes those without a password")
    func lockAll() throws {
        let sandbox = try CLISandbox()
        let names = ["first", "second"]
        for name in names {
            #expect(try sandbox.run(["create-keychain", "-p", "pw", name]).status == 0)
            #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "in-\(name)", name]).status == 0)
        }
        #expect(try sandbox.run(["create-keychain", "open"]).status == 0)
        try sandbox.addGeneric(account: "a", service: "s", password: "in-login")
        #expect(try sandbox.run(["set-keychain-password", "-p", "login-pw"]).status == 0)

        let result = try sandbox.run(["lock-keychain", "-a"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr == "keychainctl: \(sandbox.path("data/keychains/open.keychain-db")) has no password, so it cannot lock: "
            + "nothing locks it, neither lock-keychain nor a timeout, until a password is set with "
            + "`keychainctl set-keychain-password \(sandbox.path("data/keychains/open.keychain-db"))`.\n")
        for name in names {
            #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w", name]).status == 36, "\(name)")
        }
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).status == 36)
    }

    @Test("lock-keychain -a also locks a default keychain that SWIFT_KEYCHAIN_PATH puts outside the keychains folder")
    func lockAllWithKeychainPath() throws {
        let sandbox = try CLISandbox()
        let elsewhere = ["SWIFT_KEYCHAIN_PATH": sandbox.path("elsewhere.keychain-db")]
        #expect(try sandbox.run(["add-generic-password", "-a", "a", "-s", "s", "-w", "x"], environment: elsewhere).status == 0)
        #expect(try sandbox.run(["set-keychain-password", "-p", "pw"], environment: elsewhere).status == 0)
        #expect(try sandbox.run(["lock-keychain", "-a"], environment: elsewhere).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"], environment: elsewhere).status == 36)
    }

    @Test("lock-keychain -a creates no keychain when there is none, and says so")
    func lockAllWithoutKeychains() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["lock-keychain", "-a"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("no keychain to lock"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
    }

    @Test("set-keychain-settings -t on a keychain without a password says it cannot lock; with a password it says nothing")
    func timeoutWithoutPassword() throws {
        let sandbox = try CLISandbox()
        let open = try sandbox.run(["set-keychain-settings", "-t", "300"])
        #expect(open.status == 0)
        #expect(open.stderr.contains("has no password, so it cannot lock"))
        #expect(open.stderr.contains("`keychainctl set-keychain-password`"))
        let path = try Self.lockedKeychain(sandbox)
        let guarded = try sandbox.run(["set-keychain-settings", "-t", "300", path])
        #expect(guarded.status == 0)
        #expect(guarded.stderr == "")
    }

    @Test("show-keychain-info --locked-status exits 36 while locked and 0 once unlocked, printing nothing; the full form shows the state")
    func lockedStatus() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let locked = try sandbox.run(["show-keychain-info", "--locked-status", path])
        #expect(locked.status == 36)
        #expect(locked.stdout == "" && locked.stderr == "")
        #expect(try sandbox.run(["show-keychain-info", path]).stdout.contains("state:      locked\n"))
        #expect(try sandbox.run(["unlock-keychain", "-p", "pw", path]).status == 0)
        let unlocked = try sandbox.run(["show-keychain-info", "--locked-status", path])
        #expect(unlocked.status == 0)
        #expect(unlocked.stdout == "" && unlocked.stderr == "")
        #expect(try sandbox.run(["show-keychain-info", path]).stdout.contains("state:      unlocked\n"))
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        #expect(try sandbox.run(["show-keychain-info", "--locked-status"]).status == 0)
    }

    @Test("set-keychain-password changes the password: the old one stops working, the new one works")
    func changePassword() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let result = try Self.session(sandbox, [
            "set-keychain-password -o pw -p new-pw \(path)", "lock-keychain \(path)",
            "unlock-keychain -p pw \(path)", "unlock-keychain -p new-pw \(path)",
            "find-generic-password -s guarded -w \(path)",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("unlock-keychain: returned -25293"))
        #expect(result.stdout == "inside\n")
    }

    @Test("set-keychain-password with a wrong old password exits 51")
    func changePasswordWrongOld() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        #expect(try sandbox.run(["set-keychain-password", "-o", "nope", "-p", "x", path]).status == 51)
    }

    @Test("set-keychain-password gives a keychain without a password one, without asking for an old one")
    func setFirstPassword() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "guarded")
        let result = try Self.session(sandbox, [
            "set-keychain-password -p first", "lock-keychain", "find-generic-password -s s",
            "unlock-keychain -p first", "find-generic-password -s s -w",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("find-generic-password: returned -25308"))
        #expect(result.stdout.hasSuffix("guarded\n"))
    }

    @Test("An empty new password removes the password: the keychain can no longer be locked")
    func removePassword() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let removed = try sandbox.run(["set-keychain-password", "-o", "pw", "-p", "", path])
        #expect(removed.status == 0, "\(removed)")
        #expect(try sandbox.run(["lock-keychain", path]).stderr.contains("has no password, so it cannot lock"))
        #expect(try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path]).stdout == "inside\n")
    }

    @Test("create-keychain -p makes a keychain with a password")
    func createWithPassword() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("pw.keychain-db")
        let result = try Self.session(sandbox, [
            "create-keychain -p pw \(path)", "add-generic-password -a a -s s -w inside \(path)",
            "lock-keychain \(path)", "find-generic-password -s s \(path)",
        ])
        #expect(result.status == 36, "\(result)")
        #expect(try sandbox.run(["unlock-keychain", "-p", "nope", path]).status == 51)
    }

    @Test("set-keychain-settings -t sets the idle timeout that show-keychain-info shows; without -t there is none")
    func timeoutSettings() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["set-keychain-settings", "-t", "300"]).status == 0)
        #expect(try sandbox.run(["show-keychain-info"]).stderr == "Keychain \"\(sandbox.defaultKeychain.path)\" timeout=300s\n")
        #expect(try sandbox.run(["set-keychain-settings"]).status == 0)
        #expect(try sandbox.run(["show-keychain-info"]).stderr == "Keychain \"\(sandbox.defaultKeychain.path)\" no-timeout\n")
    }

    @Test("set-keychain-settings -l is accepted with a note that it has no effect here")
    func lockOnSleep() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["set-keychain-settings", "-lut", "7200"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("no effect"))
        #expect(try sandbox.run(["show-keychain-info"]).stderr.contains("timeout=7200s"))
    }

    @Test("A timeout that is not a positive number is bad usage")
    func badTimeout() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["set-keychain-settings", "-t", "0"]).status == 2)
        #expect(try sandbox.run(["set-keychain-settings", "-t", "soon"]).status == 2)
    }

    @Test("dump-keychain -d unlocks a locked keychain first, reading its password from standard input")
    func dumpUnlocksFirst() throws {
        let sandbox = try CLISandbox()
        let path = try Self.lockedKeychain(sandbox)
        let result = try sandbox.run(["dump-keychain", "-d", path], stdin: "pw\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("data:\n\"inside\"\n"))
    }

    @Test("export writes a backup that import restores into another keychain")
    func exportImport() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "backed-up", password: "precious")
        let backup = sandbox.path("backup.kcbak")
        let exported = try sandbox.run(["export", "-o", backup, "-P", "phrase"])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stdout == "1 item exported.\n")
        let other = sandbox.path("restored.keychain-db")
        #expect(try sandbox.run(["create-keychain", other]).status == 0)
        let imported = try sandbox.run(["import", backup, "-k", other, "-P", "phrase"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "1 item imported.\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "backed-up", "-w", other]).stdout == "precious\n")
        #expect((try Data(contentsOf: URL(fileURLWithPath: backup))).range(of: Data("precious".utf8)) == nil)
    }

    @Test("import with a wrong passphrase exits 51 and adds nothing")
    func importWrongPassphrase() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "backed-up", password: "precious")
        let backup = sandbox.path("backup.kcbak")
        #expect(try sandbox.run(["export", "-o", backup], stdin: "phrase\n").status == 0)
        let other = sandbox.path("restored.keychain-db")
        #expect(try sandbox.run(["create-keychain", other]).status == 0)
        #expect(try sandbox.run(["import", backup, "--keychain", other], stdin: "wrong\n").status == 51)
        #expect(try sandbox.run(["find-generic-password", "-s", "backed-up", other]).status == 44)
    }

    @Test("export without -o is bad usage")
    func exportNeedsOutput() throws {
        #expect(try CLISandbox().run(["export", "-P", "x"]).status == 2)
    }
}
