import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// pam_keychain.so in a real PAM stack: pamtester drives a service file written here, stacking
/// pam_unix (which decides) and the module, for a user added here with a real password. A login
/// (auth + open_session) unlocks the login keychain for the user's processes of that session; a
/// password change through PAM re-keys it; nothing of ours ever changes PAM's answer.
@Suite("pam_keychain.so with pamtester", .serialized,
       .enabled(if: PAMEnvironment.enabled, "the PAM tests need root and the tools: \(PAMEnvironment.missing ?? "")"))
struct PAMModuleTests {
    @Test("A login unlocks the login keychain for the user's processes of that session")
    func loginUnlocks() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        var results = try bed.runSession([
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            try bed.worker(["read", "late"]),
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            bed.keychainctl(["find-generic-password", "-a", "alice", "-s", "pam-test", "-w"]),
        ])
        #expect(results[0].status == 36, "locked before the login: \(results[0])")
        #expect(results[1].stdout == "status -25308\n", "not even after-first-unlock items before it: \(results[1])")
        results.remove(at: 1)
        #expect(results[1].status == 0, "the login itself: \(results[1])")
        #expect(results[2].status == 0, "unlocked after the login: \(results[2])")
        #expect(results[3].status == 0 && results[3].stdout == "item-secret\n", "the item reads: \(results[3])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("pam_keychain(\(bed.service):session)") && $0.contains("unlocked \(bed.loginKeychain.path)") },
                "the unlock is logged: \(log)")
        #expect(!log.joined().contains(bed.password))

        // Another session of the user (another login) gets the class keys kept until reboot, not
        // the session's unlock: the unlock belongs to the login that typed the password.
        let elsewhere = try bed.runSession([
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            try bed.worker(["read", "late"]),
            try bed.worker(["read", "alice"]),
        ])
        #expect(elsewhere[0].status == 36, "another session stays locked: \(elsewhere[0])")
        #expect(elsewhere[1].stdout == "status 0\nvalue late-secret\n", "after-first-unlock items read there: \(elsewhere[1])")
        #expect(elsewhere[2].stdout == "status -25308\n", "when-unlocked items do not: \(elsewhere[2])")
    }

    @Test("With all_sessions, a login's unlock reaches the user's processes outside it (as systemd --user services are); a lock in any ends it")
    func allSessionsReachOtherSessions() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        try bed.writeService(options: "all_sessions")
        let login = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ])
        #expect(login[0].status == 0 && login[1].status == 0, "\(login)")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("unlocked \(bed.loginKeychain.path) for all sessions") }, "\(log)")
        #expect(!log.joined().contains(bed.password))

        // Another session: the when-unlocked items read there too; then it locks the keychain.
        let elsewhere = try bed.runSession([
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            try bed.worker(["read", "alice"]),
            bed.keychainctl(["lock-keychain"]),
        ])
        #expect(elsewhere[0].status == 0, "unlocked in another session: \(elsewhere[0])")
        #expect(elsewhere[1].stdout == "status 0\nvalue item-secret\n", "when-unlocked items read there: \(elsewhere[1])")
        #expect(elsewhere[2].status == 0, "\(elsewhere[2])")
        let later = try bed.runSession([bed.keychainctl(["show-keychain-info", "--locked-status"])])
        #expect(later[0].status == 36, "locked everywhere after the lock: \(later[0])")

        // With auto_create too, the keychain made at the first login is unlocked for all sessions.
        let fresh = try PAMTestBed()
        try fresh.writeService(options: "auto_create all_sessions")
        let created = try fresh.runSession([fresh.pamtester(["authenticate", "open_session"], stdin: fresh.password + "\n")])
        #expect(created[0].status == 0, "\(created)")
        let report = fresh.log.drain()
        #expect(report.contains { $0.contains("created \(fresh.loginKeychain.path) with the login password, unlocked for all sessions") },
                "\(report)")
        let outside = try fresh.runSession([fresh.keychainctl(["show-keychain-info", "--locked-status"]), fresh.keychainctl(["lock-keychain"])])
        #expect(outside[0].status == 0, "unlocked in another session: \(outside[0])")
    }

    @Test("A wrong password fails the login as pam_unix says, and unlocks nothing")
    func wrongPassword() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let results = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: "not-the-password\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ])
        #expect(results[0].status != 0, "the login fails: \(results[0])")
        #expect(results[0].stderr.contains("Authentication failure"), "\(results[0])")
        #expect(results[1].status == 36, "still locked: \(results[1])")
        let log = bed.log.drain()
        #expect(!log.contains { $0.contains("unlocked") }, "\(log)")
        #expect(!log.joined().contains("not-the-password"))
    }

    @Test("A password change through PAM re-keys the login keychain: the old password no longer opens it, the new one does")
    func passwordChangeRekeys() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let newPassword = "Changed-\(UUID().uuidString.suffix(12))"
        // As root pam_unix asks for the current password only for an expired one: the flag makes
        // it ask, as passwd does for a user changing their own.
        let change = try bed.runSession([
            bed.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(bed.password)\n\(newPassword)\n\(newPassword)\n"),
        ])
        #expect(change[0].status == 0, "the password change: \(change[0])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("pam_keychain(\(bed.service):chauthtok)") && $0.contains("changed the password of") }, "\(log)")
        #expect(!log.joined().contains(bed.password) && !log.joined().contains(newPassword))

        let check = try bed.runSession([
            bed.keychainctl(["lock-keychain"]),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: bed.password + "\n"),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: newPassword + "\n"),
            bed.keychainctl(["find-generic-password", "-a", "alice", "-s", "pam-test", "-w"]),
        ])
        #expect(check[1].status == 51, "the old password is refused: \(check[1])")
        #expect(check[2].status == 0, "the new password opens it: \(check[2])")
        #expect(check[3].stdout == "item-secret\n", "\(check[3])")

        // And the next login, with the new password, unlocks it.
        let login = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: newPassword + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ])
        #expect(login[0].status == 0 && login[1].status == 0, "\(login)")
    }

    @Test("root setting the password (no old password) leaves the keychain with its password, and says why")
    func rootSetsPassword() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let newPassword = "ByRoot-\(UUID().uuidString.suffix(12))"
        // Without PAM_CHANGE_EXPIRED_AUTHTOK, pam_unix lets root set it without the current one.
        let change = try bed.runSession([bed.pamtester(["chauthtok"], stdin: "\(newPassword)\n\(newPassword)\n")])
        #expect(change[0].status == 0, "\(change[0])")
        #expect(bed.log.drain().contains { $0.contains("no old password in the PAM stack") })
        let check = try bed.runSession([
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: newPassword + "\n"),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: bed.password + "\n"),
        ])
        #expect(check[0].status == 51 && check[1].status == 0, "the keychain kept its password: \(check)")
    }

    @Test("A keychain whose password differs from the login's is left locked and unchanged, the login unaffected")
    func differentKeychainPassword() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain(keychainPassword: "keychain-only-password")
        let other = "Other-\(UUID().uuidString.prefix(12))"
        let results = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            bed.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(bed.password)\n\(other)\n\(other)\n"),
        ])
        #expect(results[0].status == 0, "the login: \(results[0])")
        #expect(results[1].status == 36, "still locked: \(results[1])")
        #expect(results[2].status == 0, "the password change: \(results[2])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("login password does not open") }, "\(log)")
        #expect(log.contains { $0.contains("old login password does not open") }, "\(log)")
        let unlock = try bed.runSession([
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: other + "\n"),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: "keychain-only-password\n"),
        ])
        #expect(unlock[0].status == 51, "the new login password does not open it: \(unlock[0])")
        #expect(unlock[1].status == 0, "its own password still does: \(unlock[1])")
    }

    @Test("A user without a keychain logs in and gets none; with auto_create the first login creates it with the login password")
    func userWithoutKeychain() throws {
        let bed = try PAMTestBed()
        let plain = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n")])
        #expect(plain[0].status == 0, "\(plain[0])")
        #expect(!FileManager.default.fileExists(atPath: bed.loginKeychain.path))
        #expect(!FileManager.default.fileExists(atPath: bed.home.appendingPathComponent(".config/swift-keychain").path),
                "no device key either")
        #expect(!FileManager.default.fileExists(atPath: bed.home.appendingPathComponent(".local/share/keychains").path))

        try bed.writeService(options: "auto_create")
        let created = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
            bed.keychainctl(["add-generic-password", "-a", "bob", "-s", "created", "-w"], stdin: "s\n"),
        ])
        #expect(created[0].status == 0, "\(created[0])")
        #expect(created[1].status == 0, "created unlocked: \(created[1])")
        #expect(created[2].status == 0, "\(created[2])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("created \(bed.loginKeychain.path) with the login password") }, "\(log)")
        let reopen = try bed.runSession([
            bed.keychainctl(["lock-keychain"]),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: "wrong\n"),
            bed.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: bed.password + "\n"),
        ])
        #expect(reopen[1].status == 51 && reopen[2].status == 0, "its password is the login password: \(reopen)")
    }

    @Test("No failure of the module blocks a login: missing helper, damaged keychain, hanging helper, no home")
    func failuresNeverBlock() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let login = { () throws -> CLIResult in
            try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n")])[0]
        }

        try bed.writeService(options: "helper=/nonexistent/keychain-pam-helper")
        #expect(try login().status == 0)
        #expect(bed.log.drain().contains { $0.contains("/nonexistent/keychain-pam-helper") })

        let writable = try bed.writeHelper("writable-helper", "exit 0\n")
        chmod(writable.path, 0o777)
        try bed.writeService(options: "helper=\(writable.path)")
        #expect(try login().status == 0)
        #expect(bed.log.drain().contains { $0.contains("not an executable file owned by root") })

        // A root-owned helper in a folder anyone can write (no sticky bit) could be swapped.
        let open = bed.publicFolder.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        let exposed = try bed.writeHelper("helper", "exec \(PAMTestBed.quote(try HelperRunner.binary("keychain-pam-helper").path)) \"$@\"\n",
                                          in: open)
        try bed.writeService(options: "helper=\(exposed.path)")
        #expect(try login().status == 0)
        #expect(bed.log.drain().contains { $0.contains("which someone other than root can change") })
        #expect(try bed.runSession([bed.keychainctl(["show-keychain-info", "--locked-status"])])[0].status == 36)

        let hanging = try bed.writeHelper("hanging-helper", "sleep 60 & sleep 60\n")
        try bed.writeService(options: "helper=\(hanging.path) timeout=1")
        #expect(try login().status == 0)
        #expect(bed.log.drain().contains { $0.contains("did not finish within 1 seconds") })
        // The helper's whole process group was killed: nothing of the user's is left running.
        // (Zombies are dead already: whether the machine's init has reaped them yet is not ours.)
        func running() throws -> [Substring] {
            let listing = try PAMEnvironment.run("/usr/bin/ps", ["-o", "pid=,stat=,args=", "-u", "\(bed.uid)"], check: false)
            return listing.stdout.split(separator: "\n").filter { !$0.split(separator: " ").dropFirst().first!.hasPrefix("Z") }
        }
        var leftovers = try running()
        for _ in 0..<100 where !leftovers.isEmpty {
            usleep(50_000)
            leftovers = try running()
        }
        #expect(leftovers.isEmpty, "processes of the user left behind: \(leftovers)")

        try bed.writeService(options: "")
        let damaged = Data("this is not a keychain".utf8) + Data(repeating: 0x5a, count: 4096)
        try damaged.write(to: bed.loginKeychain)
        #expect(try login().status == 0)
        #expect(bed.log.drain().contains { $0.contains("could not be opened") })
        #expect(try Data(contentsOf: bed.loginKeychain) == damaged, "the damaged file is left as it was")

        let homeless = try PAMTestBed(withHome: false)
        let result = try homeless.runSession([homeless.pamtester(["authenticate", "open_session"], stdin: homeless.password + "\n")])
        #expect(result[0].status == 0, "\(result[0])")
        #expect(homeless.log.drain().contains { $0.contains("has no home folder") })
    }

    @Test("A session keyring of another user (no pam_keyinit before the module) is refused, the login unaffected")
    func foreignSessionKeyring() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let results = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ], sessionKeyringOwnedByUser: false)
        #expect(results[0].status == 0, "\(results[0])")
        #expect(results[1].status == 36, "\(results[1])")
        #expect(bed.log.drain().contains { $0.contains("session keyring belongs to another user") })
    }

    @Test("With pam_keyinit before it (Debian's login), the login's own session keyring is accepted")
    func behindPamKeyinit() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        try bed.writeService(options: "", keyinit: true)
        // The keyring pamtester starts in is root's, as a daemon's would be; pam_keyinit gives the
        // login a new one of the user's, which the helper inherits.
        let results = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n")],
                                         sessionKeyringOwnedByUser: false)
        #expect(results[0].status == 0, "\(results[0])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("unlocked \(bed.loginKeychain.path)") }, "\(log)")
        #expect(!log.contains { $0.contains("belongs to another user") }, "\(log)")
    }

    @Test("Without a password from the stack (no pam_unix before it, or an empty password) nothing is done, even with auto_create")
    func noPasswordFromTheStack() throws {
        let bed = try PAMTestBed()
        try bed.writeService(options: "auto_create debug", auth: "pam_permit.so")
        let permitted = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: "")])
        #expect(permitted[0].status == 0, "\(permitted[0])")
        #expect(bed.log.drain().contains { $0.contains("no password in the PAM stack") })
        #expect(!FileManager.default.fileExists(atPath: bed.loginKeychain.path))

        // A user with no password at all, which pam_unix lets in with nullok, without a prompt.
        try PAMEnvironment.run("/usr/bin/passwd", ["--delete", bed.user])
        try bed.writeService(options: "auto_create debug", auth: "pam_unix.so nullok")
        let empty = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: "\n")])
        #expect(empty[0].status == 0, "\(empty[0])")
        #expect(!FileManager.default.fileExists(atPath: bed.loginKeychain.path), "no keychain with an empty password")
        #expect(!FileManager.default.fileExists(atPath: bed.home.appendingPathComponent(".config/swift-keychain").path))
    }

    @Test("Bad input through PAM: an empty password and an unknown user leave everything alone, the login unaffected")
    func badInputThroughPAM() throws {
        let bed = try PAMTestBed()
        // pam_exec with expose_authtok asks for a password and takes any, for any user name: the
        // module then sees exactly what was typed.
        let drain = try bed.writeScript("drain", "cat >/dev/null\n")
        try bed.writeService(options: "auto_create", auth: "pam_exec.so expose_authtok quiet \(drain.path)")
        let empty = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: "\n")])
        #expect(empty[0].status == 0, "\(empty[0])")
        #expect(bed.log.drain().contains { $0.contains("the password is empty") })
        #expect(!FileManager.default.fileExists(atPath: bed.loginKeychain.path))

        let unknown = try bed.runSession([
            SessionStep(arguments: ["/usr/bin/pamtester", "-v", bed.service, "nosuchuser-\(bed.uid)", "authenticate", "open_session"],
                        stdin: "some-password\n"),
        ])
        #expect(unknown[0].status == 0, "\(unknown[0])")
        let log = bed.log.drain()
        #expect(log.contains { $0.contains("user nosuchuser-\(bed.uid) is unknown") }, "\(log)")
        #expect(!log.joined().contains("some-password"))

        // And the same stack, for the real user, does create the keychain: the two above were
        // refused for what they were, not for the stack.
        let real = try bed.runSession([bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n")])
        #expect(real[0].status == 0, "\(real[0])")
        #expect(FileManager.default.fileExists(atPath: bed.loginKeychain.path))
    }

    @Test("The password reaches the helper only on its standard input: never its arguments, environment, the log or pamtester's output")
    func passwordStaysOffTheRecord() throws {
        let bed = try PAMTestBed()
        try bed.createLoginKeychain()
        let helper = try HelperRunner.binary("keychain-pam-helper")
        let record = bed.home.appendingPathComponent("helper-record")
        let wrapper = try bed.writeHelper("recording-helper", """
            { echo "argv: $0 $*"; tr '\\0' ' ' </proc/$$/cmdline; echo; tr '\\0' '\\n' </proc/$$/environ; id; } >\(PAMTestBed.quote(record.path))
            exec \(PAMTestBed.quote(helper.path)) "$@"

            """)
        try bed.writeService(options: "helper=\(wrapper.path)")
        let newPassword = "Renewed-\(UUID().uuidString.suffix(12))"
        let results = try bed.runSession([
            bed.pamtester(["authenticate", "open_session"], stdin: bed.password + "\n"),
            bed.keychainctl(["show-keychain-info", "--locked-status"]),
        ])
        #expect(results[0].status == 0 && results[1].status == 0, "the recording helper still unlocks: \(results)")
        let recorded = try String(contentsOf: record, encoding: .utf8)
        #expect(recorded.contains("argv: \(PAMTestBed.target(of: wrapper).path) unlock"), "\(recorded)")
        #expect(recorded.contains("HOME=\(bed.home.path)") && recorded.contains("uid=\(bed.uid)"), "\(recorded)")
        #expect(!recorded.contains(bed.password), "the password is not in the helper's arguments or environment")
        let change = try bed.runSession([
            bed.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(bed.password)\n\(newPassword)\n\(newPassword)\n"),
        ])
        #expect(change[0].status == 0, "\(change[0])")
        let changeRecord = try String(contentsOf: record, encoding: .utf8)
        #expect(changeRecord.contains("change-password"), "\(changeRecord)")
        #expect(!changeRecord.contains(bed.password) && !changeRecord.contains(newPassword))
        let log = bed.log.drain()
        #expect(log.count >= 2, "the module logged: \(log)")
        for text in [log.joined(separator: "\n"), results[0].stdout, results[0].stderr, change[0].stdout, change[0].stderr] {
            #expect(!text.contains(bed.password) && !text.contains(newPassword))
        }
    }
}
