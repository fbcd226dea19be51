import Foundation
import Testing

/// `unlock-keychain --all-sessions`: the unlock reaches the user's processes in other session
/// keyrings (as `systemd --user` services and other logins are), which a plain unlock does not;
/// a lock in any of them ends it for all.
@Suite("unlock-keychain --all-sessions")
struct CLIUnlockScopeTests {
    /// keychainctl in a session keyring of its own, as a process outside this login is.
    func elsewhere(_ sandbox: CLISandbox, _ arguments: [String]) throws -> CLIResult {
        try sandbox.run(["session", "-", try CLIBinary.url().path] + arguments, executable: URL(fileURLWithPath: "/usr/bin/keyctl"))
    }

    /// A new keychain with `password` (unlocked in this process's session by its creation).
    func keychain(_ sandbox: CLISandbox, _ name: String, _ password: String) throws -> String {
        let path = sandbox.path(name)
        try #require(try sandbox.run(["create-keychain", "-p", password, path]).status == 0)
        return path
    }

    @Test("A plain unlock stays in its session; --all-sessions reaches every session, and a lock in one ends it")
    func allSessionsReachesOtherSessions() throws {
        let sandbox = try CLISandbox()
        let password = "Scope-Pass-7"
        let path = try keychain(sandbox, "scoped.keychain-db", password)
        #expect(try sandbox.run(["add-generic-password", "-a", "me", "-s", "scope", "-w", "in-scope", path]).status == 0)
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        defer { _ = try? sandbox.run(["lock-keychain", path]) }
        let status = ["show-keychain-info", "--locked-status", path]
        let find = ["find-generic-password", "-a", "me", "-s", "scope", "-w", path]

        // Unlocked in another session: that session only (it ended with its process).
        #expect(try elsewhere(sandbox, ["unlock-keychain", "-p", password, path]).status == 0)
        #expect(try elsewhere(sandbox, status).status == 36)
        #expect(try sandbox.run(status).status == 36)

        // For all sessions: every other session reads, this one too.
        let unlocked = try elsewhere(sandbox, ["unlock-keychain", "--all-sessions", "-p", password, path])
        #expect(unlocked.status == 0, "\(unlocked)")
        #expect(try elsewhere(sandbox, find).stdout == "in-scope\n")
        #expect(try sandbox.run(find).stdout == "in-scope\n")

        // A lock anywhere locks it everywhere.
        #expect(try elsewhere(sandbox, ["lock-keychain", path]).status == 0)
        #expect(try sandbox.run(status).status == 36)
        #expect(try elsewhere(sandbox, find).status != 0)
    }

    @Test("Unlocking for one session after an unlock for all sessions leaves the others unlocked (an ssh login does not lock the desktop's services)")
    func aPlainUnlockLeavesOneForAllSessions() throws {
        let sandbox = try CLISandbox()
        let password = "Scope-Pass-8"
        let path = try keychain(sandbox, "narrowed.keychain-db", password)
        defer { _ = try? sandbox.run(["lock-keychain", path]) }
        #expect(try sandbox.run(["unlock-keychain", "--all-sessions", "-p", password, path]).status == 0)
        #expect(try elsewhere(sandbox, ["show-keychain-info", "--locked-status", path]).status == 0)
        #expect(try elsewhere(sandbox, ["unlock-keychain", "-p", password, path]).status == 0)
        #expect(try elsewhere(sandbox, ["show-keychain-info", "--locked-status", path]).status == 0)
        #expect(try sandbox.run(["show-keychain-info", "--locked-status", path]).status == 0)
        // Locked from any session: locked in all.
        #expect(try sandbox.run(["lock-keychain", path]).status == 0)
        #expect(try elsewhere(sandbox, ["show-keychain-info", "--locked-status", path]).status == 36)
    }

    @Test("A password change keeps an all-sessions unlock for all sessions, and a session's stale copy does not hide it")
    func aPasswordChangeKeepsTheScope() throws {
        let sandbox = try CLISandbox()
        // Creating it unlocks it in this process's session keyring: that copy goes stale below.
        let path = try keychain(sandbox, "rekeyed.keychain-db", "Scope-Old-1")
        defer { _ = try? sandbox.run(["lock-keychain", path]) }
        #expect(try elsewhere(sandbox, ["unlock-keychain", "--all-sessions", "-p", "Scope-Old-1", path]).status == 0)
        let changed = try elsewhere(sandbox, ["set-keychain-password", "-o", "Scope-Old-1", "-p", "Scope-New-2", path])
        #expect(changed.status == 0, "\(changed)")
        #expect(try elsewhere(sandbox, ["show-keychain-info", "--locked-status", path]).status == 0)
        #expect(try sandbox.run(["show-keychain-info", "--locked-status", path]).status == 0)
    }
}
