import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `keychaind --system`, the machine's keeper (docs/design-notes.md, "The system keeper"): it
/// runs as a user of its own and keeps each user's keychain and device key in a folder only it
/// can enter, so a process of the user (or an app given the user's home folder) can read
/// neither, nor the keeper's memory; users served by one keeper are kept apart; and a login
/// hands the password to it through pam_keychain.so, run as root, which only root may do for
/// another user. Real parts: keychaind as root dropping to a user made here, test users with
/// real passwords, pamtester with pam_unix, the served SecItem client and the seed programs.
@Suite("The system keeper", .serialized,
       .enabled(if: PAMEnvironment.enabled, "the system keeper's tests need root and the PAM tools: \(PAMEnvironment.missing ?? "")"))
struct SystemKeeperTests {
    @Test("Each user's keychain is served from a folder the user cannot reach, and users are kept apart")
    func keychainsAreOutOfTheUsersReach() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed(), bob = try PAMTestBed()
        let stored = try ann.runSession([
            try keeper.client(ann, ["add", "mail", "ann", "secret-of-ann"]),
            try keeper.client(ann, ["find", "mail", "ann"]),
            // What the caller claims for itself grants nothing.
            try keeper.client(ann, ["find", "mail", "ann", "swift-keychain.shared"], environment: ["SWIFT_KEYCHAIN_ACCESS_GROUPS=other"]),
        ])
        #expect(stored.map(\.stdout) == ["ok\n", "found secret-of-ann\n", "found secret-of-ann\n"], "\(stored)\n\(keeper.log)")
        let other = try bob.runSession([
            try keeper.client(bob, ["find", "mail", "ann"]),
            try keeper.client(bob, ["add", "mail", "bob", "secret-of-bob"]),
            try keeper.client(bob, ["services"]),
        ])
        #expect(other.map(\.stdout) == ["status -25300\n", "ok\n", "services mail\n"], "\(other)")
        #expect(try ann.runSession([try keeper.client(ann, ["find", "mail", "bob"])])[0].stdout == "status -25300\n")

        // The files: the keeper's, in folders only it may enter; nothing in the user's home.
        for bed in [ann, bob] {
            let keychain = keeper.keychain(ofUser: bed.uid)
            var info = stat()
            try #require(stat(keychain.path, &info) == 0, "\(keychain.path) is missing: \(keeper.log)")
            #expect(info.st_uid == keeper.serviceUID && info.st_mode & 0o077 == 0)
            try #require(stat(keychain.deletingLastPathComponent().path, &info) == 0)
            #expect(info.st_uid == keeper.serviceUID && info.st_mode & 0o7777 == 0o700)
            #expect(!FileManager.default.fileExists(atPath: bed.loginKeychain.path))
        }

        // As the user: neither file opens, the keeper's memory cannot be read and it cannot be
        // traced (it runs as another user and is not dumpable).
        let pid = keeper.processID
        let probe = """
        import ctypes, sys
        results = []
        for path in sys.argv[1:]:
            try:
                open(path, 'rb').read(1); results.append('read')
            except PermissionError:
                results.append('denied')
            except OSError as error:
                results.append('error %d' % error.errno)
        libc = ctypes.CDLL(None, use_errno=True)
        attached = libc.ptrace(16, \(pid), None, None)  # PTRACE_ATTACH
        results.append('attached' if attached == 0 else 'ptrace errno %d' % ctypes.get_errno())
        print(' '.join(results))
        """
        let attempt = try ann.runSession([
            SessionStep(arguments: ["/usr/bin/python3", "-c", probe, keeper.keychain(ofUser: ann.uid).path,
                                    keeper.deviceKey(ofUser: ann.uid).path, "/proc/\(pid)/mem", "/proc/\(pid)/environ"],
                        asUser: true),
        ])
        #expect(attempt[0].stdout == "denied denied denied denied ptrace errno 1\n", "\(attempt)")
        #expect(!keeper.log.contains("secret-of-"), "no secret reaches the keeper's log")
    }

    /// Many sandboxed apps are given the home folder. A keeper whose files sit there gives them
    /// everything; the system keeper's do not, so such an app has its own group and nothing else.
    @Test("A sandboxed app given the user's whole home folder gets only its own items")
    func anAppWithTheHomeFolderGetsOnlyItsOwn() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed()
        let app = "org.example.Notes"
        let results = try ann.runSession([
            try keeper.client(ann, ["add", "mail", "ann", "secret-of-ann"]),
            try keeper.client(ann, app: app, ["find", "mail", "ann"]),
            try keeper.client(ann, app: app, ["find", "mail", "ann", "swift-keychain.shared"]),
            try keeper.client(ann, app: app, ["add", "notes", "ann", "secret-of-notes"]),
            try keeper.client(ann, app: app, ["find", "notes", "ann"]),
            try keeper.client(ann, ["find", "notes", "ann"]),
            // Everything the app can reach of the user's files: no keychain and no device key.
            SessionStep(arguments: ["/usr/bin/find", ann.home.path, "-name", "*keychain*", "-o", "-name", "device-key"], asUser: true),
        ])
        #expect(results.map(\.stdout) == ["ok\n", "status -25300\n", "status -34018\n", "ok\n", "found secret-of-notes\n",
                                          "status -25300\n", ""], "\(results)\n\(keeper.log)")
    }

    /// Served, keychainctl's password commands go to the keeper like any program's calls (its
    /// groups are the keeper's to give, not an administrator's), and a command that would open
    /// the file is refused rather than run on a copy nobody else uses.
    @Test("keychainctl's password commands are served; the commands that open the file are refused")
    func keychainctlIsServed() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed()
        let results = try ann.runSession([
            keeper.keychainctl(ann, ["add-generic-password", "-a", "ann", "-s", "web", "-w", "secret-of-ann"]),
            keeper.keychainctl(ann, ["find-generic-password", "-a", "ann", "-s", "web", "-w"]),
            try keeper.client(ann, ["find", "web", "ann"]),
            keeper.keychainctl(ann, ["add-generic-password", "-U", "-a", "ann", "-s", "web", "-w", "changed-secret"]),
            keeper.keychainctl(ann, ["find-generic-password", "-s", "web"]),
            keeper.keychainctl(ann, ["find-generic-password", "-s", "web", "-w"]),
            try keeper.client(ann, app: "org.example.Notes", ["add", "notes", "ann", "secret-of-notes"]),
            keeper.keychainctl(ann, ["find-generic-password", "-s", "notes"]),
            keeper.keychainctl(ann, ["dump-keychain"]),
            keeper.keychainctl(ann, ["export", "-o", ann.home.appendingPathComponent("backup").path, "-P", "pw"]),
            keeper.keychainctl(ann, ["show-keychain-info"]),
            keeper.keychainctl(ann, ["delete-generic-password", "-s", "web"]),
            keeper.keychainctl(ann, ["find-generic-password", "-s", "web"]),
        ])
        #expect(results[0].status == 0 && results[1].stdout == "secret-of-ann\n", "\(results.prefix(2))\n\(keeper.log)")
        #expect(results[2].stdout == "found secret-of-ann\n", "the item is the keeper's, found by any program: \(results[2])")
        #expect(results[3].status == 0 && results[4].stdout.contains("\"acct\"<blob>=\"ann\"") && results[5].stdout == "changed-secret\n",
                "\(results[3...5])")
        #expect(results[4].stdout.contains("keychain: \"\(keeper.socket)\""), "\(results[4])")
        #expect(results[7].status == 44, "keychainctl is given the shared group, not the app's: \(results[7])")
        #expect(results[8].status == 0 && results[8].stdout.contains("\"svce\"<blob>=\"web\"")
                    && !results[8].stdout.contains("notes") && !results[8].stdout.contains("secret-of"), "\(results[8])")
        #expect(results[9].status == 53 && results[9].stderr.contains("served by keychaind at \(keeper.socket)"), "\(results[9])")
        #expect(results[10].status == 0 && results[10].stdout.contains("programs:   served by keychaind at \(keeper.socket)")
                    && results[10].stdout.contains("state:      never locks (no password)"), "\(results[10])")
        #expect(results[11].status == 0 && results[11].stderr.contains("password has been deleted."), "\(results[11])")
        #expect(results[12].status == 44, "\(results[12])")
        #expect(!FileManager.default.fileExists(atPath: ann.loginKeychain.path), "keychainctl opened no file of its own")
        #expect(!FileManager.default.fileExists(atPath: ann.home.appendingPathComponent(".config/swift-keychain/device-key").path))
    }

    /// Socket activation: the service manager holds the socket, and the first call starts the
    /// keeper rather than meeting `errSecNotAvailable`.
    @Test("Started on demand: the first call starts the keeper on the socket the service manager made")
    func startedOnDemand() throws {
        let keeper = try SystemKeeperBed(onDemand: true)
        let ann = try PAMTestBed()
        #expect(!keeper.log.contains("serving the system keeper"), "not started before a client: \(keeper.log)")
        let results = try ann.runSession([
            try keeper.client(ann, ["add", "mail", "ann", "secret-of-ann"]),
            try keeper.client(ann, ["find", "mail", "ann"]),
        ])
        #expect(results.map(\.stdout) == ["ok\n", "found secret-of-ann\n"], "\(results)\n\(keeper.log)")
        #expect(keeper.log.contains("serving the system keeper") && keeper.log.contains("socket=\(keeper.socket)"), "\(keeper.log)")
        var info = stat()
        #expect(stat(keeper.keychain(ofUser: ann.uid).path, &info) == 0 && info.st_uid == keeper.serviceUID, "it became its user")
        // The socket is the manager's: the keeper leaves it when it stops.
        #expect(keeper.stop() == 0)
        #expect(lstat(keeper.socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
    }

    @Test("The seed programs run served by the system keeper, unchanged")
    func seedProgramsRunServed() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed()
        let results = try ann.runSession([try keeper.served(ann, "seed-keychain-manager"), try keeper.served(ann, "seed-internet-password")])
        #expect(results[0].status == 0 && results[0].stdout.contains("取得したパスワード: yourSecurePassword"), "\(results[0])\n\(keeper.log)")
        #expect(results[1].status == 0, "\(results[1])")
        #expect(FileManager.default.fileExists(atPath: keeper.keychain(ofUser: ann.uid).path))
        #expect(!FileManager.default.fileExists(atPath: ann.loginKeychain.path), "the program never opened a file of its own")
        // Seed 001 (an item only the device owner may read) answers served as it answers embedded.
        let seed = try HelperRunner.binary("seed-access-control").path
        let both = try ann.runSession(["save", "read"].flatMap { command in
            [try keeper.served(ann, "seed-access-control", [command]), SessionStep(arguments: [seed, command], asUser: true)]
        })
        #expect(both[0].stdout == both[1].stdout && both[2].stdout == both[3].stdout && !both[0].stdout.isEmpty, "\(both)")
    }

    @Test("A login hands the password to the keeper: it creates, locks at the keeper's restart, unlocks again, and follows a password change")
    func loginHandsThePasswordOver() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed(options: "auto_create keeper=\(keeper.socket)")
        let first = try ann.runSession([
            ann.pamtester(["authenticate", "open_session"], stdin: ann.password + "\n"),
            try keeper.client(ann, ["add", "mail", "ann", "secret-of-ann"]),
            try keeper.client(ann, ["find", "mail", "ann"]),
        ])
        #expect(first.map(\.stdout).suffix(2) == ["ok\n", "found secret-of-ann\n"], "\(first)\n\(keeper.log)")
        let log = ann.log.drain()
        #expect(log.contains { $0.contains("created the login keychain of user \(ann.uid) in the keeper") }, "\(log)")
        #expect(!log.joined().contains(ann.password))

        // The unlock lives in the keeper: restarted, it holds the keychain locked until the next login.
        keeper.stop()
        try keeper.start()
        let locked = try ann.runSession([try keeper.client(ann, ["find", "mail", "ann"])])
        #expect(locked[0].stdout == "status -25308\n", "\(locked)")
        let again = try ann.runSession([
            ann.pamtester(["authenticate", "open_session"], stdin: ann.password + "\n"),
            try keeper.client(ann, ["find", "mail", "ann"]),
        ])
        #expect(again[1].stdout == "found secret-of-ann\n", "\(again)\n\(ann.log.drain())")

        // A password change re-keys it; the next login, with the new password, unlocks it.
        let newPassword = "Changed-\(UUID().uuidString.suffix(12))"
        let change = try ann.runSession([
            ann.pamtester(["chauthtok(PAM_CHANGE_EXPIRED_AUTHTOK)"], stdin: "\(ann.password)\n\(newPassword)\n\(newPassword)\n"),
        ])
        #expect(change[0].status == 0, "\(change)")
        #expect(ann.log.drain().contains { $0.contains("changed the password of user \(ann.uid)'s login keychain in the keeper") })
        keeper.stop()
        try keeper.start()
        let afterChange = try ann.runSession([
            ann.pamtester(["authenticate", "open_session"], stdin: newPassword + "\n"),
            try keeper.client(ann, ["find", "mail", "ann"]),
        ])
        #expect(afterChange[1].stdout == "found secret-of-ann\n", "\(afterChange)\n\(ann.log.drain())")
        #expect(!keeper.log.contains(ann.password) && !keeper.log.contains(newPassword))
    }

    /// The attack: a process of another user (or of the user itself, for someone else) hands the
    /// keeper a password for a user it is not, hoping to unlock that user's keychain. Only root
    /// may name another user.
    @Test("Only root hands the keeper another user's password")
    func onlyRootUnlocksForAnotherUser() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed(options: "auto_create keeper=\(keeper.socket)")
        let bob = try PAMTestBed()
        let created = try ann.runSession([
            ann.pamtester(["authenticate", "open_session"], stdin: ann.password + "\n"),
            try keeper.client(ann, ["add", "mail", "ann", "secret-of-ann"]),
        ])
        try #require(created[1].stdout == "ok\n", "\(created)\n\(keeper.log)")
        keeper.stop()
        try keeper.start()

        let helper = try PAMEnvironment.helper.get().path
        let handOver = ["unlock", "--keeper", keeper.socket, "--user", String(ann.uid)]
        // Bob, even with Ann's right password, is refused, and Ann's keychain stays locked.
        let byBob = try bob.runSession([SessionStep(arguments: [helper] + handOver, stdin: ann.password + "\0", asUser: true)])
        #expect(byBob[0].status == 1 && byBob[0].stderr.contains("refused"), "\(byBob)")
        #expect(try ann.runSession([try keeper.client(ann, ["find", "mail", "ann"])])[0].stdout == "status -25308\n")
        #expect(keeper.log.contains("refused a keychain call"), "\(keeper.log)")

        // Root with a wrong password is told so; with the right one, it unlocks Ann's keychain.
        let wrong = try PAMEnvironment.run(helper, handOver, stdin: "not-the-password\0", check: false)
        #expect(wrong.status == 4, "\(wrong)")
        let byRoot = try PAMEnvironment.run(helper, handOver, stdin: ann.password + "\0", check: false)
        #expect(byRoot.status == 0, "\(byRoot)")
        #expect(try ann.runSession([try keeper.client(ann, ["find", "mail", "ann"])])[0].stdout == "found secret-of-ann\n")
        // Ann herself may hand over her own.
        keeper.stop()
        try keeper.start()
        let byAnn = try ann.runSession([
            SessionStep(arguments: [helper] + handOver, stdin: ann.password + "\0", asUser: true),
            try keeper.client(ann, ["find", "mail", "ann"]),
        ])
        #expect(byAnn[0].status == 0 && byAnn[1].stdout == "found secret-of-ann\n", "\(byAnn)")
    }

    /// `keychainctl move-keychain-to-keeper` and `move-keychain-from-keeper`: the file travels
    /// whole, so the items and the password come along; a keeper that already holds one, or a
    /// file already at home, refuses and loses nothing.
    @Test("An embedded login keychain moves into the keeper and back out, whole")
    func aKeychainMovesInAndOut() throws {
        let keeper = try SystemKeeperBed()
        let ann = try PAMTestBed(options: "keeper=\(keeper.socket)")
        try ann.createLoginKeychain()
        let home = ann.loginKeychain.path
        // The sync state beside it travels as it is (sealed under the device key, opaque to the move).
        let syncState = "sync-state-\(UUID().uuidString)"
        let keeperSyncState = keeper.keychain(ofUser: ann.uid).path + ".sync"
        let moveIn = ann.keychainctl(["move-keychain-to-keeper", "--keeper", keeper.socket])
        var moved = try ann.runSession([
            SessionStep(arguments: ["/bin/sh", "-c", "umask 077; printf %s \"$1\" > \"$2\"", "sh", syncState, home + ".sync"], asUser: true),
            // A served call before the move made the user an empty keychain in the keeper,
            // which the move replaces: it holds nothing to lose.
            try keeper.client(ann, ["find", "pam-test", "alice"]),
            // A program holding the file open (keychaind's Secret Service would) would go on
            // writing to a deleted file: the move refuses while it does.
            SessionStep(arguments: ["/bin/sh", "-c", "exec 3<\"$0\"; \"$1\" move-keychain-to-keeper --keeper \"$2\"",
                                    home, ann.keychainctl.path, keeper.socket], asUser: true),
            moveIn,
            // Locked, as it was; a login hands the keeper its password, which is still the same.
            try keeper.client(ann, ["find", "pam-test", "alice"]),
            ann.pamtester(["authenticate", "open_session"], stdin: ann.password + "\n"),
            try keeper.client(ann, ["find", "pam-test", "alice"]),
        ])
        let before = moved.remove(at: 1)
        #expect(before.stdout == "status -25300\n", "\(before)")
        let whileOpen = moved.remove(at: 1)
        #expect(whileOpen.status == 53 && whileOpen.stderr.contains("The keychain is open in sh ("), "\(whileOpen)")
        #expect(moved[1].status == 0 && moved[1].stdout.contains("moved"), "\(moved[1])\n\(keeper.log)")
        #expect(moved[2].stdout == "status -25308\n" && moved[4].stdout == "found item-secret\n", "\(moved)\n\(keeper.log)")
        #expect(!FileManager.default.fileExists(atPath: home) && !FileManager.default.fileExists(atPath: home + ".sync"),
                "the readable copy at home is gone")
        #expect((try? String(contentsOfFile: keeperSyncState, encoding: .utf8)) == syncState)

        // A program not switched over fails, naming the keeper, instead of starting a new
        // keychain at home that every process of the user could read.
        let notSwitched = try ann.runSession([
            SessionStep(arguments: [try HelperRunner.binary("keychain-served-client").path, "add", "late", "ann", "secret-at-home"], asUser: true),
            ann.keychainctl(["find-generic-password", "-s", "pam-test"]),
        ])
        #expect(notSwitched[0].stdout == "status -25291\n", "\(notSwitched[0])")
        #expect(notSwitched[1].status == 53 && notSwitched[1].stderr.contains("moved into the keeper \(keeper.socket)"), "\(notSwitched[1])")
        #expect(!FileManager.default.fileExists(atPath: home), "no new keychain at home")
        #expect(FileManager.default.fileExists(atPath: keeper.keychain(ofUser: ann.uid).path))

        // keychainctl, served, hands the keeper the password: a wrong one is refused, the right
        // one unlocks the moved keychain for every served program (here after a restart locked it).
        keeper.stop()
        try keeper.start()
        let unlocked = try ann.runSession([
            keeper.keychainctl(ann, ["unlock-keychain", "--password-fd", "-"], stdin: "not-the-password\n"),
            try keeper.client(ann, ["find", "pam-test", "alice"]),
            keeper.keychainctl(ann, ["unlock-keychain", "--password-fd", "-"], stdin: ann.password + "\n"),
            try keeper.client(ann, ["find", "pam-test", "alice"]),
        ])
        #expect(unlocked[0].status == 51 && unlocked[1].stdout == "status -25308\n", "\(unlocked)")
        #expect(unlocked[2].status == 0 && unlocked[3].stdout == "found item-secret\n", "\(unlocked)\n\(keeper.log)")
        // And locks it again, for every served program, without a restart.
        let locked = try ann.runSession([
            keeper.keychainctl(ann, ["show-keychain-info", "--locked-status"]),
            keeper.keychainctl(ann, ["lock-keychain"]),
            try keeper.client(ann, ["find", "pam-test", "alice"]),
            keeper.keychainctl(ann, ["show-keychain-info", "--locked-status"]),
            keeper.keychainctl(ann, ["show-keychain-info"]),
            keeper.keychainctl(ann, ["unlock-keychain", "--password-fd", "-"], stdin: ann.password + "\n"),
        ])
        #expect(locked[0].status == 0 && locked[1].status == 0 && locked[2].stdout == "status -25308\n", "\(locked)\n\(keeper.log)")
        #expect(locked[3].status == 36 && locked[4].stdout.contains("state:      locked") && locked[5].status == 0, "\(locked)")

        // A second keychain does not replace the one the keeper holds, and stays where it is.
        // (Making one at home at all takes deleting the note first.)
        let attempts = try ann.runSession([
            ann.keychainctl(["create-keychain", "-P", "login"], stdin: "another-password\n"),
            SessionStep(arguments: ["/bin/rm", home + ".moved-to-keeper"], asUser: true),
            ann.keychainctl(["create-keychain", "-P", "login"], stdin: "another-password\n"),
            moveIn,
            ann.keychainctl(["delete-keychain", "login"]),
        ])
        #expect(attempts[0].status == 53 && attempts[0].stderr.contains("moved into the keeper"), "\(attempts[0])")
        #expect(attempts[2].status == 0, "\(attempts[2])")
        let refused = Array(attempts.dropFirst(2))
        #expect(refused[1].status == 48 && refused[1].stderr.contains("move that one out first"), "errSecDuplicateKeychain: \(refused)")
        #expect(refused[2].status == 0, "the second keychain stayed at home: \(refused[2])")
        #expect(try ann.runSession([try keeper.client(ann, ["find", "pam-test", "alice"])])[0].stdout == "found item-secret\n")

        // Out again: the file at home, the keeper's copy gone, the items and the password as they were.
        let moveOut = ann.keychainctl(["move-keychain-from-keeper", "--keeper", keeper.socket])
        let out = try ann.runSession([moveOut])
        #expect(out[0].status == 0, "\(out[0])\n\(keeper.log)")
        #expect(!FileManager.default.fileExists(atPath: keeper.keychain(ofUser: ann.uid).path), "the keeper's copy is deleted")
        #expect(!FileManager.default.fileExists(atPath: keeper.deviceKey(ofUser: ann.uid).path))
        #expect(!FileManager.default.fileExists(atPath: keeperSyncState))
        #expect((try? String(contentsOfFile: home + ".sync", encoding: .utf8)) == syncState)
        let after = try ann.runSession([
            ann.keychainctl(["unlock-keychain", "--password-fd", "-"], stdin: ann.password + "\n"),
            ann.keychainctl(["find-generic-password", "-s", "pam-test", "-a", "alice", "-w"]),
            try ann.worker(["read", "late"]),
            // The keeper holds nothing of it now (a served call starts an empty keychain there).
            try keeper.client(ann, ["find", "pam-test", "alice"]),
            // The file at home is not overwritten by a keychain moved out.
            moveOut,
        ])
        #expect(after[0].status == 0 && after[1].stdout == "item-secret\n", "\(after)")
        #expect(after[2].stdout == "status 0\nvalue late-secret\n", "\(after[2])")
        #expect(after[3].stdout == "status -25300\n", "\(after[3])")
        #expect(after[4].status != 0 && after[4].stderr.contains("already"), "\(after[4])")
        #expect(FileManager.default.fileExists(atPath: home))
        #expect(!FileManager.default.fileExists(atPath: home + ".moved-to-keeper"), "the note is gone with the keychain back")
        #expect(!keeper.log.contains("item-secret") && !keeper.log.contains(ann.password))
    }
}
