import CKeychainSystem
import Foundation
import Testing

/// Deleting a keychain also takes its unlocked keys out of the kernel keyring: otherwise the
/// class keys of a keychain that no longer exists would stay readable there (until reboot, for
/// the first-unlock keys) by any process of the user.
@Suite("delete-keychain forgets the keychain's keys in the kernel keyring")
struct CLIDeleteKeychainKeyringTests {
    /// The keyring descriptions of a keychain's shared unlock state (see UnlockState).
    static func descriptions(_ keychain: String) throws -> (unlocked: String, firstUnlock: String) {
        let id = try SQLiteShell(database: URL(fileURLWithPath: keychain))
            .run("SELECT lower(hex(value)) FROM settings WHERE name = 'keychain-id';")
        try #require(id.count == 32, "no keychain id in \(keychain): \(id)")
        return ("swift-keychain:\(id):unlocked", "swift-keychain:\(id):first-unlock")
    }

    /// Whether a live (not invalidated) key with `description` is found from this process, in
    /// the session keyring (which the keychainctl children inherited) or the user keyring.
    static func isInKeyring(_ description: String) -> Bool {
        cks_keyctl_search(CKS_KEY_SPEC_SESSION_KEYRING, description) >= 0
            || cks_keyctl_search(CKS_KEY_SPEC_USER_KEYRING, description) >= 0
    }

    func unlockedKeychain(_ sandbox: CLISandbox, _ name: String) throws -> (String, (unlocked: String, firstUnlock: String)) {
        let path = sandbox.path(name)
        #expect(try sandbox.run(["create-keychain", "-p", "Del-Pass-4", path]).status == 0)
        #expect(try sandbox.run(["unlock-keychain", path], stdin: "Del-Pass-4\n").status == 0)
        let names = try Self.descriptions(path)
        // Without these the test would prove nothing (a machine whose keyring is blocked).
        try #require(Self.isInKeyring(names.unlocked) && Self.isInKeyring(names.firstUnlock),
                     "the unlocked keychain's keys are not in the kernel keyring here")
        return (path, names)
    }

    @Test("After delete-keychain in a new process, neither the unlocked nor the first-unlock key is found")
    func deleteInNewProcess() throws {
        let sandbox = try CLISandbox()
        let (path, names) = try unlockedKeychain(sandbox, "gone.keychain-db")
        let deleted = try sandbox.run(["delete-keychain", path])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!Self.isInKeyring(names.unlocked), "\(names.unlocked) is still in the session keyring")
        #expect(!Self.isInKeyring(names.firstUnlock), "\(names.firstUnlock) is still in the user keyring")
    }

    @Test("After delete-keychain of a keychain the same interactive session had open, its keys are gone too")
    func deleteInSameSession() throws {
        let sandbox = try CLISandbox()
        let (path, names) = try unlockedKeychain(sandbox, "open.keychain-db")
        let result = try sandbox.run(["-i"], stdin: "show-keychain-info \(path)\ndelete-keychain \(path)\n")
        #expect(result.status == 0, "\(result)")
        #expect(!Self.isInKeyring(names.unlocked) && !Self.isInKeyring(names.firstUnlock))
    }
}
