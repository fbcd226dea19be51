import Foundation
import KeychainDBus
import Testing

/// Collections are keychains: the keychains folder is served, and CreateCollection makes a new
/// keychain file there.
@Suite struct CollectionTests {
    static let root = "/org/freedesktop/secrets"

    static func collections(_ client: DBusConnection) throws -> [String] {
        let reply = try client.call(destination: "org.freedesktop.secrets", path: root, interface: "org.freedesktop.DBus.Properties",
                                    member: "Get", arguments: [.string("org.freedesktop.Secret.Service"), .string("Collections")])
        guard case .variant(.array(_, let paths))? = reply.first else { return [] }
        return paths.compactMap { if case .objectPath(let path) = $0 { return path } else { return nil } }
    }

    @Test func createCollectionMakesAKeychainFileKeychainctlFinds() throws {
        // The prompt for the new keychain's password is answered with none.
        let sandbox = try CollectionLifecycleTests.sandbox(ScriptedPinentry(answer: ""))
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let created = try CollectionLifecycleTests.secretstorage(sandbox, """
        print(secretstorage.create_collection(conn, "Work").collection_path)
        """)
        #expect(created.stdout == Self.root + "/collection/work\n", "\(created)\n\(sandbox.log)")
        #expect(try Self.collections(client).contains(Self.root + "/collection/work"))
        // An alias that names it returns it at once, without a prompt.
        _ = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                            member: "SetAlias", arguments: [.string("office"), .objectPath(Self.root + "/collection/work")])
        let again = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                                    member: "CreateCollection", arguments: [.array(elementSignature: "{sv}", []), .string("office")])
        #expect(again == [.objectPath(Self.root + "/collection/work"), .objectPath("/")])
        let info = try sandbox.keychainctl(["show-keychain-info", "work"])
        #expect(info.status == 0, "\(info)")
        #expect(info.stdout.contains("work.keychain-db"))
        let stored = try sandbox.secretTool(["store", "--collection", Self.root + "/collection/work", "--label", "w",
                                             "service", "intranet", "username", "me"], stdin: "in-work")
        #expect(stored.status == 0, "\(stored)")
        let found = try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w", "work"])
        #expect(found.stdout == "in-work\n", "\(found)")
        // Not in the login keychain.
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w"]).status != 0)
    }

    /// Waits (up to 20 s: the machine may be loaded) until `condition` holds; whether it did.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<200 {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    /// keychaind follows the keychains folder while it runs: a keychain made there is served
    /// without a restart, one deleted stops being served (its items are no longer found over
    /// D-Bus, nothing can be stored into it, an alias set to it is cleared), and one made again
    /// under the same name is served from its new, empty file, also when it replaces the old
    /// file at once.
    @Test func keychainsMadeAndDeletedWhileRunningAreFollowed() throws {
        let sandbox = try DaemonSandbox()
        let listener = try DBusConnection.session(address: sandbox.busAddress)
        let received = Received()
        try listener.subscribe(path: Self.root, interface: "org.freedesktop.Secret.Service") { signal in
            if case .objectPath(let path)? = signal.arguments.first { received.append("\(signal.member) \(path)") }
        }
        let loop = Thread { listener.run() }
        loop.start()
        defer { listener.stop() }
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let work = Self.root + "/collection/work"
        let lookup = ["lookup", "service", "intranet", "username", "me"]
        func store(_ secret: String) throws -> ClientResult {
            try sandbox.secretTool(["store", "--collection", work, "--label", "w", "service", "intranet", "username", "me"], stdin: secret)
        }
        #expect(try !Self.collections(client).contains(work))

        #expect(try sandbox.keychainctl(["create-keychain", "work"]).status == 0)
        #expect(try Self.eventually { try Self.collections(client).contains(work) }, "\(sandbox.log)")
        #expect(try store("in-work").status == 0)
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w", "work"]).stdout == "in-work\n")
        #expect(try sandbox.secretTool(lookup).stdout == "in-work")
        _ = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                            member: "SetAlias", arguments: [.string("mine"), .objectPath(work)])

        #expect(try sandbox.keychainctl(["delete-keychain", "work"]).status == 0)
        #expect(try Self.eventually { try !Self.collections(client).contains(work) }, "\(sandbox.log)")
        let gone = try sandbox.secretTool(lookup)
        #expect(gone.status != 0 && gone.stdout.isEmpty, "\(gone)")
        #expect(try store("nowhere").status != 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.keychainsFolder.appendingPathComponent("work.keychain-db").path))
        let alias = try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                                    member: "ReadAlias", arguments: [.string("mine")])
        #expect(alias == [.objectPath("/")])

        // Made again and used at once, without waiting for the folder's report: the call for a
        // collection that is not served makes keychaind look again.
        #expect(try sandbox.keychainctl(["create-keychain", "work"]).status == 0)
        let label = try client.call(destination: "org.freedesktop.secrets", path: work, interface: "org.freedesktop.DBus.Properties",
                                    member: "Get", arguments: [.string("org.freedesktop.Secret.Collection"), .string("Label")])
        #expect(label == [.variant(.string("work"))])
        #expect(try store("second").status == 0, "\(sandbox.log)")
        #expect(try Self.collections(client).contains(work))
        #expect(try sandbox.secretTool(lookup).stdout == "second")

        // Deleted and made again at once: served from the new file whether the folder's reports
        // arrive as one burst or two.
        let keychainctl = try BuiltProduct.url("keychainctl").path
        #expect(try sandbox.run("/bin/sh", ["-c", "\"$0\" delete-keychain work && \"$0\" create-keychain work", keychainctl]).status == 0)
        #expect(try Self.eventually { try sandbox.secretTool(lookup).status != 0 && Self.collections(client).contains(work) },
                "\(sandbox.log)")
        #expect(try store("third").status == 0)
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "intranet", "-a", "me", "-w", "work"]).stdout == "third\n")

        #expect(Self.eventually { received.members.filter { $0.hasSuffix(work) }.count >= 5 })
        let signals = received.members.filter { $0.hasSuffix(work) }
        #expect(Array(signals.prefix(3)) == ["CollectionCreated \(work)", "CollectionDeleted \(work)", "CollectionCreated \(work)"])
        #expect(Array(signals.dropFirst(3)) == ["CollectionDeleted \(work)", "CollectionCreated \(work)"])
    }

    /// A file in the keychains folder that is not a keychain is reported once and not served;
    /// the daemon goes on, and a real keychain made under that name later is served.
    @Test func aDamagedFileInTheFolderIsReportedOnceAndNotServed() throws {
        let sandbox = try DaemonSandbox()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let junk = sandbox.keychainsFolder.appendingPathComponent("junk.keychain-db")
        try Data(repeating: 0x5a, count: 8192).write(to: junk)
        func reports() -> Int { sandbox.log.components(separatedBy: "could not be opened").count - 1 }
        #expect(Self.eventually { reports() == 1 }, "\(sandbox.log)")
        // Another change in the folder does not report it again.
        #expect(try sandbox.keychainctl(["create-keychain", "other"]).status == 0)
        #expect(try Self.eventually { try Self.collections(client).contains(Self.root + "/collection/other") })
        #expect(reports() == 1, "\(sandbox.log)")
        #expect(try !Self.collections(client).contains(Self.root + "/collection/junk"))

        try FileManager.default.removeItem(at: junk)
        #expect(try sandbox.keychainctl(["create-keychain", "junk"]).status == 0)
        #expect(try Self.eventually { try Self.collections(client).contains(Self.root + "/collection/junk") }, "\(sandbox.log)")
    }

    /// The login keychain deleted while keychaind runs is no longer served, so nothing can be
    /// read from or stored into the deleted file, and keychaind does not make a new one by
    /// itself. It is served again once it exists: made by a program that stores an item, or by
    /// libsecret asking for the `default` collection before it stores.
    @Test func aDeletedLoginKeychainIsServedAgainOnlyOnceItExists() throws {
        let sandbox = try DaemonSandbox()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        let login = Self.root + "/collection/login"
        let file = sandbox.keychainsFolder.appendingPathComponent("login.keychain-db")
        let lookup = ["lookup", "service", "mail", "username", "me"]
        func readDefault() throws -> [DBusValue] {
            try client.call(destination: "org.freedesktop.secrets", path: Self.root, interface: "org.freedesktop.Secret.Service",
                            member: "ReadAlias", arguments: [.string("default")])
        }
        #expect(try sandbox.secretTool(["store", "--label", "m", "service", "mail", "username", "me"], stdin: "first").status == 0)
        #expect(try sandbox.secretTool(lookup).stdout == "first")

        #expect(try sandbox.keychainctl(["delete-keychain", "login"]).status == 0)
        #expect(try Self.eventually { try !Self.collections(client).contains(login) }, "\(sandbox.log)")
        #expect(try readDefault() == [.objectPath("/")])
        #expect(try sandbox.secretTool(lookup).status != 0)
        usleep(300_000)
        #expect(!FileManager.default.fileExists(atPath: file.path))

        // A program that stores an item makes it anew: served again, first in the list.
        #expect(try sandbox.keychainctl(["add-generic-password", "-s", "mail", "-a", "me", "-w", "second"]).status == 0)
        #expect(try Self.eventually { try Self.collections(client).first == login }, "\(sandbox.log)")
        #expect(try readDefault() == [.objectPath(login)])
        #expect(try sandbox.secretTool(lookup).stdout == "second")

        // Deleted again; this time libsecret's store makes it (CreateCollection for `default`).
        #expect(try sandbox.keychainctl(["delete-keychain", "login"]).status == 0)
        #expect(try Self.eventually { try !Self.collections(client).contains(login) }, "\(sandbox.log)")
        #expect(try sandbox.secretTool(["store", "--label", "m", "service", "mail", "username", "me"], stdin: "third").status == 0)
        #expect(try sandbox.keychainctl(["find-generic-password", "-s", "mail", "-a", "me", "-w"]).stdout == "third\n")
        #expect(try sandbox.secretTool(lookup).stdout == "third")
        #expect(try Self.collections(client).first == login)
        usleep(300_000)  // the watch adopts the file made through CreateCollection rather than withdraw it
        #expect(try sandbox.secretTool(lookup).stdout == "third", "\(sandbox.log)")
    }

    @Test func keychainsInTheFolderAreServedAsCollections() throws {
        let sandbox = try DaemonSandbox(nil)
        #expect(try sandbox.keychainctl(["create-keychain", "-p", "pw", "projects"]).status == 0)
        #expect(try sandbox.keychainctl(["add-generic-password", "-s", "build", "-a", "ci", "-w", "token", "projects"]).status == 0)
        try sandbox.start()
        let client = try DBusConnection.session(address: sandbox.busAddress)
        defer { client.close() }
        #expect(try Self.collections(client) == [Self.root + "/collection/login", Self.root + "/collection/session",
                                                 Self.root + "/collection/projects"])
        // A keychain with a password starts locked for the daemon as for every process.
        _ = try sandbox.keychainctl(["lock-keychain", "projects"])
        let locked = try client.call(destination: "org.freedesktop.secrets", path: Self.root + "/collection/projects",
                                     interface: "org.freedesktop.DBus.Properties", member: "Get",
                                     arguments: [.string("org.freedesktop.Secret.Collection"), .string("Locked")])
        #expect(locked.first == .variant(.boolean(true)))
    }
}
