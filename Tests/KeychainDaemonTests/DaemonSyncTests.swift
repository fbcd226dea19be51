#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainDBus
import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychaind keeps a keychain that joined a sync group in step by itself (docs/sync.md,
/// "Continuous sync"): two machines, each a private session with its own keychaind, keychain and
/// device key, share one real PostgreSQL server. An item added on one reaches the other without
/// anyone running `sync now`, also when it was added while the server was down.
@Suite("keychaind: continuous sync", .serialized)
struct DaemonSyncTests {
    /// One machine: a sandbox session (keychaind not started yet) and its keychain, opened in
    /// this process as an application's `SecItemAdd` would.
    struct Machine {
        let sandbox: DaemonSandbox
        let file: KeychainFile

        init() throws {
            sandbox = try DaemonSandbox(nil)
            let environment = sandbox.environment
            file = try KeychainFile.open(at: KeychainPaths.defaultKeychain(environment: environment),
                                         deviceKey: try DeviceKey.load(from: DeviceKey.defaultLocation(environment: environment), create: true))
        }

        func sync(_ arguments: [String]) throws -> ClientResult {
            try sandbox.run(try BuiltProduct.url("keychain-sync").path, arguments)
        }

        /// Adds a synchronizable password to `keychain` (the login keychain when nil).
        func add(_ account: String, _ secret: String, to keychain: KeychainFile? = nil) throws {
            _ = try (keychain ?? file).add(.genericPassword, attributes: [
                AttributeName.account: .string(account), AttributeName.service: .string("daemon-sync-test"),
                AttributeName.synchronizable: .integer(1),
            ], secret: Data(secret.utf8), identity: .administrator())
        }

        func secret(_ account: String, in keychain: KeychainFile? = nil) throws -> String? {
            let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.account: .string(account)], anySynchronizable: true)
            return try (keychain ?? file).find(query, identity: .administrator(), limit: 1, includeSecrets: true).first?.secret
                .map { String(decoding: $0, as: UTF8.self) }
        }

        /// Another keychain of this machine's keychains folder, which keychaind serves as a collection.
        func otherKeychain(_ name: String) throws -> KeychainFile {
            return try KeychainFile.open(at: sandbox.keychainsFolder.appendingPathComponent(name + KeychainNames.fileExtension),
                                         deviceKey: try DeviceKey.load(from: DeviceKey.defaultLocation(environment: sandbox.environment), create: true))
        }

        /// Waits (up to two minutes: the machine may be loaded) until the item arrives.
        func waitFor(_ account: String, _ secret: String, in keychain: KeychainFile? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
            for _ in 0..<1200 {
                if try self.secret(account, in: keychain) == secret { return }
                usleep(100_000)
            }
            Issue.record("\(account) never arrived; keychaind's log:\n\(sandbox.log)", sourceLocation: sourceLocation)
        }

        /// keychaind's log lines for the keychain-sync children it started.
        var childLines: [Substring] {
            sandbox.log.split(separator: "\n").filter { $0.contains("syncing the keychain through") }
        }

        /// The pids of the keychain-sync children keychaind reported starting.
        var childPIDs: [Int32] {
            childLines.compactMap { line in
                line.range(of: "pid=").flatMap { Int32(line[$0.upperBound...].prefix { $0.isNumber }) }
            }
        }
    }

    /// `a` creates a sync group on `server` and approves `b` into it: their login keychains, or
    /// the given keychain files.
    static func formGroup(_ server: SyncTestServer, _ a: Machine, _ b: Machine,
                          keychains: (a: KeychainFile, b: KeychainFile)? = nil) throws {
        let chosenA = keychains.map { ["--keychain", $0.a.url.path] } ?? []
        let chosenB = keychains.map { ["--keychain", $0.b.url.path] } ?? []
        let created = try a.sync(["join"] + chosenA + [server.url, "--name", "a"])
        try #require(created.status == 0 && created.stdout.contains("created a new sync group"), "\(created)")
        let group = try #require(fingerprints(in: created.stdout).last, "\(created)")
        let pending = try b.sync(["join"] + chosenB + [server.url, "--name", "b", "--group", group])
        try #require(pending.status == 0, "\(pending)")
        let fingerprint = try #require(fingerprints(in: pending.stdout).first, "\(pending)")
        let approved = try a.sync(["approve"] + chosenA + [fingerprint])
        try #require(approved.status == 0, "\(approved)")
    }

    /// The fingerprints `keychain-sync join` printed: the device's first, the group's last.
    static func fingerprints(in output: String) -> [String] {
        output.split(whereSeparator: { " \n,".contains($0) }).filter { $0.count == 24 && $0.filter { $0 == "-" }.count == 4 }.map(String.init)
    }

    /// Whether process `pid` is gone within ten seconds.
    static func ends(_ pid: Int32) -> Bool {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 { return true }
            usleep(50_000)
        }
        return false
    }

    @Test("An item added on one machine reaches the other's keychain through keychaind, also across a server outage")
    func itemsReachTheOtherMachine() throws {
        let server = try SyncTestServer()
        defer { server.stop() }
        let a = try Machine(), b = try Machine()
        defer {
            a.file.forgetSharedUnlockState()
            b.file.forgetSharedUnlockState()
        }

        try Self.formGroup(server, a, b)

        // An item from before keychaind started, then one added while it runs.
        try a.add("before", "added before keychaind ran")
        try a.sandbox.start()
        try b.sandbox.start()
        try b.waitFor("before", "added before keychaind ran")
        try a.add("live", "added while both listen")
        try b.waitFor("live", "added while both listen")

        // The server goes away; a change made meanwhile reaches b once it is back.
        try server.stopServer()
        try a.add("offline", "added while the server was down")
        usleep(1_000_000)
        #expect(try b.secret("offline") == nil)
        try server.start()
        try b.waitFor("offline", "added while the server was down")

        // And the other way round, without restarting anything.
        try b.add("from-b", "b's own change")
        try a.waitFor("from-b", "b's own change")

        // keychaind's children end with it.
        let children = a.childPIDs + b.childPIDs
        #expect(children.count >= 2, "keychaind did not report its sync child: \(a.sandbox.log)")
        #expect(a.sandbox.stop() == 0)
        #expect(b.sandbox.stop() == 0)
        for pid in children {
            #expect(Self.ends(pid), "keychain-sync \(pid) outlived keychaind")
        }
    }

    @Test("A keychain besides the login one, served as a collection, is kept in step by keychaind too")
    func otherKeychainsSyncToo() throws {
        let server = try SyncTestServer()
        defer { server.stop() }
        let a = try Machine(), b = try Machine()
        let workA = try a.otherKeychain("work"), workB = try b.otherKeychain("work")
        defer {
            for file in [a.file, b.file, workA, workB] { file.forgetSharedUnlockState() }
        }
        // Only the work keychains join; the login keychains stay out of any group.
        try Self.formGroup(server, a, b, keychains: (workA, workB))

        try a.sandbox.start()
        try b.sandbox.start()
        try a.add("work-item", "from a's work keychain", to: workA)
        try b.waitFor("work-item", "from a's work keychain", in: workB)
        // Nothing went to the login keychain, which is in no group; every child either keychaind
        // ran was for the work keychain.
        #expect(try b.secret("work-item") == nil)
        for machine in [a, b] {
            let lines = machine.childLines
            #expect(!lines.isEmpty && lines.allSatisfy { $0.contains("work.keychain-db") }, "\(machine.sandbox.log)")
        }
        // A keychain deleted while keychaind runs is no longer served, its child stops (it may
        // also end by itself on losing its file), and none is started again for it (a child
        // that ended is otherwise started again after a second).
        let children = a.childPIDs
        #expect(try a.sandbox.keychainctl(["delete-keychain", "work"]).status == 0)
        var withdrawn = false
        for _ in 0..<200 where !withdrawn {
            withdrawn = a.sandbox.log.contains("no longer served")
            if !withdrawn { usleep(50_000) }
        }
        #expect(withdrawn, "\(a.sandbox.log)")
        for pid in children {
            #expect(Self.ends(pid), "keychain-sync \(pid) outlived its keychain: \(a.sandbox.log)")
        }
        let started = a.childLines.count
        usleep(1_500_000)
        #expect(a.childLines.count == started, "\(a.sandbox.log)")
        #expect(a.sandbox.stop() == 0)
        #expect(b.sandbox.stop() == 0)
    }

    @Test("A keychain created through keychaind is synced once it joins a group, without a restart")
    func createdCollectionsSyncToo() throws {
        let server = try SyncTestServer()
        defer { server.stop() }
        let machine = try Machine()
        // CreateCollection's prompt for the new keychain's password is answered with none.
        let pinentry = try ScriptedPinentry(answer: "").install(in: machine.sandbox.home)
        try machine.sandbox.start(extraEnvironment: ["SWIFT_KEYCHAIN_PINENTRY": pinentry.path])
        let reply = try CollectionLifecycleTests.secretstorage(machine.sandbox, """
        print(secretstorage.create_collection(conn, "Team").collection_path)
        """)
        #expect(reply.stdout == "/org/freedesktop/secrets/collection/team\n", "\(reply)\n\(machine.sandbox.log)")
        let team = try machine.otherKeychain("team")
        defer { team.forgetSharedUnlockState() }
        let created = try machine.sync(["join", "--keychain", team.url.path, server.url, "--name", "team"])
        try #require(created.status == 0, "\(created)")
        // The supervision looks for the sync state every 30 s until it appears.
        var started = false
        for _ in 0..<450 where !started {
            started = machine.childLines.contains { $0.contains("team.keychain-db") }
            if !started { usleep(100_000) }
        }
        #expect(started, "\(machine.sandbox.log)")
        #expect(machine.sandbox.stop() == 0)
    }

    @Test("keychaind --no-sync leaves a joined keychain alone, and keychaind without a sync group starts no child")
    func noSync() throws {
        let server = try SyncTestServer()
        defer { server.stop() }
        let plain = try Machine()
        defer { plain.file.forgetSharedUnlockState() }
        try plain.sandbox.start()
        usleep(500_000)
        #expect(plain.childPIDs.isEmpty, "\(plain.sandbox.log)")
        plain.sandbox.stop()

        let joined = try Machine()
        defer { joined.file.forgetSharedUnlockState() }
        let created = try joined.sync(["join", server.url, "--name", "joined"])
        try #require(created.status == 0, "\(created)")
        try joined.sandbox.start(arguments: ["--no-sync"])
        usleep(500_000)
        #expect(joined.childPIDs.isEmpty, "\(joined.sandbox.log)")
    }
}

/// A PostgreSQL 15 server for these tests, in a temporary folder on a Unix socket, as the sync
/// suites start theirs (initdb and pg_ctl from Debian's postgresql package).
final class SyncTestServer: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"
    let folder: String
    var url: String { "postgresql://keychain@/postgres?host=\(folder)" }

    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: SyncTestServer.binaries + "/initdb"),
                     "PostgreSQL 15 is not installed (scripts/install-system-packages.sh installs it)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kc-daemon-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if getuid() == 0 { _ = try SyncTestServer.run(["/bin/chown", "postgres:postgres", folder]) }
        let initdb = try SyncTestServer.asServer([SyncTestServer.binaries + "/initdb", "-D", folder + "/data", "-U", "keychain",
                                                  "-A", "trust", "--no-sync", "-E", "UTF8"])
        try #require(initdb.status == 0, "initdb failed: \(initdb.output)")
        try start()
    }

    func start() throws {
        let result = try SyncTestServer.asServer([SyncTestServer.binaries + "/pg_ctl", "-D", folder + "/data", "-l", folder + "/server.log",
                                                  "-o", "-k \(folder) -c listen_addresses='' -p 5432 -c fsync=off", "-w", "start"])
        try #require(result.status == 0, "pg_ctl start failed: \(result.output)")
    }

    /// Stops the server (connections cut), keeping its data for ``start()``.
    func stopServer() throws {
        let result = try SyncTestServer.asServer([SyncTestServer.binaries + "/pg_ctl", "-D", folder + "/data", "-m", "fast", "-w", "stop"])
        try #require(result.status == 0, "pg_ctl stop failed: \(result.output)")
    }

    func stop() {
        _ = try? SyncTestServer.asServer([SyncTestServer.binaries + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func asServer(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments)
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        // A file, not a pipe: the server pg_ctl starts keeps the descriptors it inherits.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kc-daemon-pg-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let exit = process.waitForExit()
        try handle.close()
        return (exit.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}
#endif
