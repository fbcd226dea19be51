import Foundation
import Testing

/// Each hint fits its error: which password was refused, which keychain is locked, and the
/// program named as it was invoked.
@Suite struct CLIHintTests {
    @Test("A wrong keychain password's hint is about that keychain's password, not biometry")
    func wrongKeychainPassword() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        let result = try sandbox.run(["unlock-keychain", "-p", "wrong", path])
        #expect(result.status == 51)
        #expect(result.stderr.contains("Hint: The password of \(path) was not accepted, so it stays locked"))
        #expect(!result.stderr.contains("biometry"))
        let change = try sandbox.run(["set-keychain-password", "-o", "wrong", "-p", "new", path])
        #expect(change.status == 51)
        #expect(change.stderr.contains("Hint: The current password of \(path)"))
        #expect(!change.stderr.contains("biometry"))
    }

    @Test("A wrong backup passphrase's hint says it is the export passphrase, not the keychain password")
    func wrongPassphrase() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "a", service: "s", password: "x")
        let backup = sandbox.path("backup.kcbak")
        #expect(try sandbox.run(["export", "-o", backup, "-P", "phrase"]).status == 0)
        let result = try sandbox.run(["import", backup, "-P", "not-it"])
        #expect(result.status == 51)
        #expect(result.stderr.contains("Hint: The backup's passphrase was not accepted: it is the passphrase given to export"))
        #expect(!result.stderr.contains("biometry"))
        #expect(!result.stderr.contains("not-it"))
    }

    @Test("A locked keychain other than the default one is named in the unlock hint; the default one is not")
    func lockedKeychainIsNamed() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        let named = try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path])
        #expect(named.status == 36)
        #expect(named.stderr.contains("(run `keychainctl unlock-keychain \(path)`)"), "\(named)")
        let exported = try sandbox.run(["export", "-o", sandbox.path("b.kcbak"), "-P", "p", "-k", path])
        #expect(exported.status == 36)
        #expect(exported.stderr.contains("(run `keychainctl unlock-keychain \(path)`)"), "\(exported)")

        try sandbox.addGeneric(account: "a", service: "s", password: "x")
        #expect(try sandbox.run(["set-keychain-password", "-p", "pw"]).status == 0)
        #expect(try sandbox.run(["lock-keychain"]).status == 0)
        let unnamed = try sandbox.run(["find-generic-password", "-s", "s", "-w"])
        #expect(unnamed.status == 36)
        #expect(unnamed.stderr.contains("(run `keychainctl unlock-keychain`)"), "\(unnamed)")
    }

    @Test("A keychain path with a space is quoted in the hint, so the command can be pasted")
    func quotedPath() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("my keychains.keychain-db")
        let result = try sandbox.run(["find-generic-password", "-s", "s", path])
        #expect(result.status == 50)
        #expect(result.stderr.contains("`keychainctl create-keychain '\(path)'`"), "\(result)")
    }

    @Test("Installed as security, the error line and the commands in hints say security")
    func programNameAsInvoked() throws {
        let sandbox = try CLISandbox()
        let security = try sandbox.linkToBinary(named: "security")
        let missing = try sandbox.run(["find-generic-password", "-s", "nothing"], executable: security)
        #expect(missing.status == 44)
        #expect(missing.stderr.hasPrefix("security: SecKeychainSearchCopyNext:"))
        #expect(missing.stderr.contains("`security dump-keychain`"))
        #expect(!missing.stderr.contains("`keychainctl"))
        let lock = try sandbox.run(["lock-keychain"], executable: security)
        #expect(lock.stderr.contains("`security set-keychain-password`"))
        #expect(lock.stderr.hasPrefix("security: "))
        #expect(!lock.stderr.contains("`keychainctl"))
        let typo = try sandbox.run(["dump-keychian"], executable: security)
        #expect(typo.stderr.contains("Usage: security [-i]"))
        #expect(typo.stderr.contains("See 'security --help'"))
        #expect(!typo.stderr.contains("keychainctl "))
    }
}
