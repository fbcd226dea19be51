import Foundation
import KeychainDBus
import Testing

/// Collections as the specification has them: `CreateCollection` asks for the new keychain's
/// password at a prompt, `Collection.Delete` asks before it deletes, labels can be changed and
/// last, aliases last across restarts, a collection without a password locks and unlocks, and
/// every change is signalled, whichever door it came through. The clients are Python's
/// secretstorage and secret-tool; the person at the prompt is a scripted pinentry
/// (``ScriptedPinentry``), which speaks pinentry's protocol as the real one does.
@Suite struct CollectionLifecycleTests {
    static let root = "/org/freedesktop/secrets"
    static let service = "org.freedesktop.Secret.Service"

    /// A sandbox whose prompts are answered by `pinentry`.
    static func sandbox(_ pinentry: ScriptedPinentry) throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox(nil)
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": try pinentry.install(in: sandbox.home).path])
        return sandbox
    }

    /// Runs a secretstorage script (Debian's python3-secretstorage); `conn` is its connection.
    static func secretstorage(_ sandbox: DaemonSandbox, _ body: String) throws -> ClientResult {
        try sandbox.python("""
        import sys, secretstorage
        from secretstorage.exceptions import PromptDismissedException, LockedException
        conn = secretstorage.dbus_init()
        \(body)
        """)
    }

    @Test func createCollectionAsksForItsPasswordAndKeepsItsLabel() throws {
        let pinentry = ScriptedPinentry(answer: "work-password")
        let sandbox = try Self.sandbox(pinentry)
        let created = try Self.secretstorage(sandbox, """
        c = secretstorage.create_collection(conn, "Work Files")
        print(c.collection_path)
        print(c.get_label())
        c.create_item("vpn", {"service": "vpn", "username": "ann"}, b"s3cret")
        c.lock()
        print(c.is_locked())
        print(c.unlock())
        print(c.is_locked())
        c.set_label("Renamed")
        again = secretstorage.create_collection(conn, "Work Files")
        print(again.collection_path)
        """)
        #expect(created.status == 0, "\(created)\n\(sandbox.log)")
        // Locked, then unlocked through the prompt (unlock() is False: not dismissed).
        #expect(created.stdout == """
            \(Self.root)/collection/work_files
            Work Files
            True
            False
            False
            \(Self.root)/collection/work_files_2

            """)
        // The prompt named the program that asked and the keychain; the password was asked twice.
        let heard = pinentry.heard(in: sandbox.home)
        #expect(heard.contains { $0.hasPrefix("SETDESC ") && $0.contains("python3") && $0.contains("create the keychain") })
        #expect(heard.filter { $0 == "GETPIN" }.count == 2 + 1 + 2, "\(heard)")
        // The keychain has that password: keychainctl needs it too.
        #expect(try sandbox.keychainctl(["lock-keychain", "work_files"]).status == 0)
        #expect(try sandbox.keychainctl(["unlock-keychain", "-p", "wrong", "work_files"]).status != 0)
        #expect(try sandbox.keychainctl(["unlock-keychain", "-p", "work-password", "work_files"]).status == 0)
        let found = try sandbox.keychainctl(["find-generic-password", "-s", "vpn", "-a", "ann", "-w", "work_files"])
        #expect(found.stdout == "s3cret\n", "\(found)")

        // The label lasts across a restart.
        sandbox.stop()
        try sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": sandbox.home.appendingPathComponent(ScriptedPinentry.name).path])
        let label = try Self.secretstorage(sandbox, """
        print(secretstorage.Collection(conn, "\(Self.root)/collection/work_files").get_label())
        """)
        #expect(label.stdout == "Renamed\n", "\(label)\n\(sandbox.log)")
    }

    /// An empty answer makes a keychain without a password. Such a collection still locks, for
    /// D-Bus clients: its items then answer `IsLocked`, and `Unlock` opens it without a prompt.
    @Test func aCollectionWithoutAPasswordLocksAndUnlocksWithoutAPrompt() throws {
        let pinentry = ScriptedPinentry(answer: "")
        let sandbox = try Self.sandbox(pinentry)
        let result = try Self.secretstorage(sandbox, """
        c = secretstorage.create_collection(conn, "Open")
        item = c.create_item("x", {"k": "v"}, b"open-secret")
        c.lock()
        print(c.is_locked(), item.is_locked())
        try:
            item.get_secret()
        except LockedException:
            print("locked")
        print(c.unlock())
        print(c.is_locked(), item.get_secret().decode())
        """)
        #expect(result.status == 0, "\(result)\n\(sandbox.log)")
        #expect(result.stdout == "True True\nlocked\nFalse\nFalse open-secret\n")
        // One prompt: the creation's (no second question for an empty answer, none to unlock).
        #expect(pinentry.heard(in: sandbox.home).filter { $0 == "GETPIN" }.count == 1)
    }

    @Test func aCancelledCreationMakesNothing() throws {
        let sandbox = try Self.sandbox(ScriptedPinentry(answer: nil))
        let result = try Self.secretstorage(sandbox, """
        try:
            secretstorage.create_collection(conn, "Never")
        except PromptDismissedException:
            print("dismissed")
        print(sorted(c.collection_path for c in secretstorage.get_all_collections(conn)))
        """)
        #expect(result.status == 0, "\(result)\n\(sandbox.log)")
        #expect(result.stdout == "dismissed\n['\(Self.root)/collection/login', '\(Self.root)/collection/session']\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.keychainsFolder.appendingPathComponent("never.keychain-db").path))
    }

    @Test func deleteAsksFirstAndDeletesTheKeychain() throws {
        let pinentry = ScriptedPinentry(answer: "unused", confirms: false)
        let sandbox = try Self.sandbox(pinentry)
        #expect(try sandbox.keychainctl(["create-keychain", "old"]).status == 0)
        #expect(try sandbox.keychainctl(["add-generic-password", "-s", "s", "-a", "a", "-w", "w", "old"]).status == 0)
        let file = sandbox.keychainsFolder.appendingPathComponent("old.keychain-db")
        let script = """
        c = secretstorage.Collection(conn, "\(Self.root)/collection/old")
        try:
            c.delete()
            print("deleted")
        except PromptDismissedException:
            print("kept")
        print(sorted(c.collection_path for c in secretstorage.get_all_collections(conn)))
        """
        let refused = try Self.secretstorage(sandbox, script)
        #expect(refused.stdout == "kept\n['\(Self.root)/collection/login', '\(Self.root)/collection/old', '\(Self.root)/collection/session']\n",
                "\(refused)\n\(sandbox.log)")
        #expect(FileManager.default.fileExists(atPath: file.path))
        let heard = pinentry.heard(in: sandbox.home)
        #expect(heard.contains { $0.hasPrefix("SETDESC ") && $0.contains("delete the keychain") && $0.contains("python3") }, "\(heard)")

        pinentry.setConfirms(true, in: sandbox.home)
        let deleted = try Self.secretstorage(sandbox, script)
        #expect(deleted.stdout == "deleted\n['\(Self.root)/collection/login', '\(Self.root)/collection/session']\n",
                "\(deleted)\n\(sandbox.log)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try sandbox.keychainctl(["show-keychain-info", "old"]).status != 0)
        // The session collection is not deleted.
        let session = try Self.secretstorage(sandbox, """
        try:
            secretstorage.Collection(conn, "\(Self.root)/collection/session").delete()
        except Exception as error:
            print(error)
        """)
        #expect(session.stdout.contains("org.freedesktop.DBus.Error.NotSupported"), "\(session)")
    }

    /// `SetAlias` lasts across restarts, `default` included: secret-tool then stores into the
    /// collection it names. `login` and `session` keep their meaning.
    @Test func aliasesLastAcrossRestarts() throws {
        let sandbox = try Self.sandbox(ScriptedPinentry(answer: ""))
        #expect(try sandbox.keychainctl(["create-keychain", "work"]).status == 0)
        let work = Self.root + "/collection/work"
        let client = try DBusConnection.session(address: sandbox.busAddress)
        func call(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
            try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: Self.service, member: member, arguments: arguments)
        }
        #expect(try CollectionTests.eventually { try CollectionTests.collections(client).contains(work) })
        _ = try call("SetAlias", [.string("default"), .objectPath(work)])
        _ = try call("SetAlias", [.string("mine"), .objectPath(work)])
        #expect(throws: DBusError.self) { _ = try call("SetAlias", [.string("login"), .objectPath(work)]) }
        client.close()

        sandbox.stop()
        try sandbox.start()
        let again = try DBusConnection.session(address: sandbox.busAddress)
        defer { again.close() }
        func read(_ alias: String) throws -> [DBusValue] {
            try again.call(destination: "org.freedesktop.secrets", path: Self.root, interface: Self.service, member: "ReadAlias",
                           arguments: [.string(alias)])
        }
        #expect(try read("default") == [.objectPath(work)], "\(sandbox.log)")
        #expect(try read("mine") == [.objectPath(work)])
        #expect(try read("login") == [.objectPath(Self.root + "/collection/login")])
        let stored = try sandbox.secretTool(["store", "--label", "to default", "service", "mail", "username", "ann"], stdin: "via-default")
        #expect(stored.status == 0, "\(stored)")
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "mail", "-a", "ann", "-w", "work"]).stdout == "via-default\n")
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "mail", "-a", "ann", "-w"]).status != 0)

        // Pointing `default` nowhere gives it back to the login keychain, also after a restart.
        _ = try again.call(destination: "org.freedesktop.secrets", path: Self.root, interface: Self.service, member: "SetAlias",
                           arguments: [.string("default"), .objectPath("/")])
        sandbox.stop()
        try sandbox.start()
        #expect(try sandbox.run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.secrets", Self.root,
                                                        "\(Self.service).ReadAlias", "string:default"]).stdout.contains("/collection/login"))
    }

    /// Items added, changed and deleted by keychainctl (the SecItem calls every program makes),
    /// and a lock made by keychainctl, reach D-Bus listeners as the same signals a D-Bus client's
    /// change sends; a D-Bus client's own change is signalled once.
    @Test func changesThroughOtherDoorsAreSignalled() throws {
        let sandbox = try DaemonSandbox()
        let listener = try DBusConnection.session(address: sandbox.busAddress)
        let received = Received()
        try listener.subscribe(interface: "org.freedesktop.Secret.Collection") { signal in
            if case .objectPath(let path)? = signal.arguments.first { received.append("\(signal.member) \(path)") }
        }
        try Self.recordLockChanges(of: "login", on: listener, into: received)
        let loop = Thread { listener.run() }
        loop.start()
        defer { listener.stop() }

        #expect(try sandbox.keychainctl(["add-generic-password", "-s", "door", "-a", "ann", "-w", "1"]).status == 0)
        #expect(CollectionTests.eventually { received.members.count >= 1 }, "\(sandbox.log)")
        guard let created = received.members.first, created.hasPrefix("ItemCreated \(Self.root)/collection/login/g") else {
            Issue.record("\(received.members)")
            return
        }
        let item = String(created.dropFirst("ItemCreated ".count))
        #expect(try sandbox.keychainctl(["add-generic-password", "-U", "-s", "door", "-a", "ann", "-w", "2"]).status == 0)
        #expect(CollectionTests.eventually { received.members.count >= 2 })
        #expect(try sandbox.keychainctl(["delete-generic-password", "-s", "door", "-a", "ann"]).status == 0)
        #expect(CollectionTests.eventually { received.members.count >= 3 })
        #expect(received.members == ["ItemCreated \(item)", "ItemChanged \(item)", "ItemDeleted \(item)"])

        // A D-Bus client's store is signalled once, by the daemon's own call.
        let stored = try sandbox.secretTool(["store", "--label", "own", "service", "own", "username", "ann"], stdin: "x")
        #expect(stored.status == 0, "\(stored)")
        #expect(CollectionTests.eventually { received.members.count >= 4 })
        usleep(300_000)
        #expect(received.members.count == 4, "\(received.members)")

        // A lock made by keychainctl: the login keychain gets a password, then is locked.
        #expect(try sandbox.keychainctl(["set-keychain-password", "-p", "pw"]).status == 0)
        #expect(try sandbox.keychainctl(["lock-keychain"]).status == 0)
        #expect(CollectionTests.eventually { received.members.contains("Locked true") }, "\(received.members)\n\(sandbox.log)")
        #expect(try sandbox.keychainctl(["unlock-keychain", "-p", "pw"]).status == 0)
        #expect(CollectionTests.eventually { received.members.contains("Locked false") }, "\(received.members)")
    }

    /// keychaind looks at the keychains it serves every two seconds, for lock changes; looking
    /// is not using: a keychain's idle timeout still locks it, and listeners hear of it.
    @Test func anIdleTimeoutStillLocksAWatchedKeychain() throws {
        let sandbox = try DaemonSandbox()
        let listener = try DBusConnection.session(address: sandbox.busAddress)
        let received = Received()
        try Self.recordLockChanges(of: "login", on: listener, into: received)
        let loop = Thread { listener.run() }
        loop.start()
        defer { listener.stop() }
        #expect(try sandbox.keychainctl(["set-keychain-password", "-p", "pw"]).status == 0)
        #expect(try sandbox.keychainctl(["set-keychain-settings", "-t", "3"]).status == 0)
        #expect(try sandbox.keychainctl(["unlock-keychain", "-p", "pw"]).status == 0)
        // Locked by the timeout within 3 s of the unlock; the watch then says so within 2 s.
        #expect(CollectionTests.eventually { received.members.contains("Locked true") }, "\(received.members)\n\(sandbox.log)")
        #expect(try sandbox.keychainctl(["show-keychain-info", "--locked-status"]).status == 36)
    }

    /// What gnome-keyring does too: a collection's label is read-write, and `Lock` locks it.
    @Test(arguments: [DaemonSandbox.Provider.keychaind, .gnomeKeyring])
    func labelIsReadWriteAndLockLocks(provider: DaemonSandbox.Provider) throws {
        let sandbox = try DaemonSandbox(provider)
        let result = try Self.secretstorage(sandbox, """
        c = secretstorage.get_default_collection(conn)
        c.set_label("Everyday")
        print(c.get_label())
        c.lock()
        print(c.is_locked())
        """)
        #expect(result.status == 0, "\(result)\n\(sandbox.log)")
        #expect(result.stdout == "Everyday\nTrue\n")
    }
}

extension CollectionLifecycleTests {
    /// Notes each `Locked` that a `PropertiesChanged` of the collection `name` carries, as
    /// "Locked true" or "Locked false".
    static func recordLockChanges(of name: String, on listener: DBusConnection, into received: Received) throws {
        try listener.subscribe(interface: "org.freedesktop.DBus.Properties") { signal in
            guard signal.path.hasSuffix("/collection/" + name), signal.arguments.count > 1,
                  case .array(_, let changed) = signal.arguments[1] else { return }
            for entry in changed {
                if case .dictEntry(.string("Locked"), .variant(.boolean(let locked))) = entry { received.append("Locked \(locked)") }
            }
        }
    }
}

/// A pinentry that answers as a scripted person: every password question with `answer` (nil:
/// Cancel), every confirmation with yes or no. It speaks pinentry's Assuan protocol, and notes
/// each line it was sent in a file beside it, so a test can check what the person was asked.
struct ScriptedPinentry {
    static let name = "scripted-pinentry"
    let answer: String?
    var confirms = true

    /// Writes the program (and its answers) into `folder`; its path.
    func install(in folder: URL) throws -> URL {
        let program = folder.appendingPathComponent(Self.name)
        try """
        #!/bin/sh
        here=$(dirname "$0")
        echo "OK scripted pinentry"
        while IFS= read -r line; do
            printf '%s\\n' "$line" >> "$here/pinentry-heard"
            case "$line" in
            GETPIN)
                if [ -e "$here/pinentry-cancels" ]; then echo "ERR 83886179 Operation cancelled"; continue; fi
                answer=$(cat "$here/pinentry-answer")
                [ -n "$answer" ] && printf 'D %s\\n' "$answer"
                echo OK ;;
            CONFIRM)
                if [ -e "$here/pinentry-refuses" ]; then echo "ERR 83886179 Operation cancelled"; else echo OK; fi ;;
            BYE) echo OK; exit 0 ;;
            *) echo OK ;;
            esac
        done
        """.write(to: program, atomically: true, encoding: .utf8)
        guard chmod(program.path, 0o755) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        try (answer ?? "").write(to: folder.appendingPathComponent("pinentry-answer"), atomically: true, encoding: .utf8)
        if answer == nil { _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("pinentry-cancels").path, contents: nil) }
        setConfirms(confirms, in: folder)
        return program
    }

    func setConfirms(_ yes: Bool, in folder: URL) {
        let refuses = folder.appendingPathComponent("pinentry-refuses")
        if yes {
            try? FileManager.default.removeItem(at: refuses)
        } else {
            _ = FileManager.default.createFile(atPath: refuses.path, contents: nil)
        }
    }

    /// The lines the pinentry was sent, in order.
    func heard(in folder: URL) -> [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("pinentry-heard"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }
}
