import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychaind as the keeper (`--keeper`): SecItem calls of programs run with
/// `SWIFT_KEYCHAIN_KEEPER=served` go over its socket and are made with the groups the caller's
/// identity earns, whatever the caller claims (docs/isolation.md, docs/design-notes.md "The
/// keeper"). The client is a plain SecItem program (Tests/ServedClient), run on the host and in
/// bubblewrap roots with a written `/.flatpak-info`.
@Suite struct KeeperTests {
    static let appA = "org.example.A"
    static let appB = "org.example.B"

    static func startKeeper() throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox(nil)
        try sandbox.start(arguments: ["--keeper"])
        return sandbox
    }

    @Test(.enabled(if: DaemonSandbox.canMakeSandboxes, "needs bubblewrap (scripts/install-system-packages.sh)"))
    func appsAreKeptApartOverTheSocket() throws {
        let sandbox = try Self.startKeeper()
        let stored = try sandbox.servedClient(app: Self.appA, ["add", "mail", "ann", "secret-of-A"])
        try #require(stored.stdout == "ok\n", "\(stored)\n\(sandbox.log)")
        #expect(try sandbox.servedClient(app: Self.appA, ["find", "mail", "ann"]).stdout == "found secret-of-A\n")
        // Stored in A's own group, which is A's default for adds.
        #expect(try sandbox.servedClient(app: Self.appA, ["find", "mail", "ann", "flatpak.\(Self.appA)"]).stdout == "found secret-of-A\n")

        // B finds nothing, may not name A's group, and its claim to A's group grants nothing.
        #expect(try sandbox.servedClient(app: Self.appB, ["find", "mail", "ann"]).stdout == "status -25300\n")
        #expect(try sandbox.servedClient(app: Self.appB, ["find", "mail", "ann", "flatpak.\(Self.appA)"]).stdout == "status -34018\n")
        let claimed = try sandbox.servedClient(app: Self.appB, ["find", "mail", "ann"],
                                               environment: ["SWIFT_KEYCHAIN_ACCESS_GROUPS": "flatpak.\(Self.appA)"])
        #expect(claimed.stdout == "status -25300\n", "\(claimed)")
        #expect(try sandbox.servedClient(app: Self.appB, ["services"]).stdout == "status -25300\n")

        // A host program with no rule keeps the shared group: it sees neither app's items.
        #expect(try sandbox.servedClient(["find", "mail", "ann"]).stdout == "status -25300\n")
        #expect(try sandbox.servedClient(["add", "host", "hal", "host-secret"]).stdout == "ok\n")
        #expect(try sandbox.servedClient(app: Self.appA, ["find", "host", "hal"]).stdout == "status -25300\n")

        // A rule for the host program's executable, with its digest, lets it see A's group.
        let client = try BuiltProduct.url("keychain-served-client").resolvingSymlinksInPath()
        try sandbox.writePolicyRule("client.conf", """
        executable = \(client.path)
        executable-sha256 = \(try Self.sha256(of: client, in: sandbox))
        keychain-access-groups = swift-keychain.shared, flatpak.\(Self.appA)
        """)
        #expect(try sandbox.servedClient(["find", "mail", "ann"]).stdout == "found secret-of-A\n")
    }

    /// SecKeyCreateRandomKey with kSecAttrIsPermanent stores the pair through the keeper (both
    /// halves in one call), into the caller's default group: the program finds and signs with its
    /// key; a sandboxed app does not see it, and its own key stays its own.
    @Test(.enabled(if: DaemonSandbox.canMakeSandboxes, "needs bubblewrap (scripts/install-system-packages.sh)"))
    func permanentKeysAreStoredThroughTheKeeper() throws {
        let sandbox = try Self.startKeeper()
        let made = try sandbox.servedClient(["make-key", "team.signing"])
        try #require(made.stdout == "ok\n", "\(made)\n\(sandbox.log)")
        #expect(try sandbox.servedClient(["sign-with", "team.signing"]).stdout == "signed\n")
        #expect(try sandbox.servedClient(app: Self.appA, ["sign-with", "team.signing"]).stdout == "status -25300\n")
        #expect(try sandbox.servedClient(app: Self.appA, ["make-key", "app.signing"]).stdout == "ok\n")
        #expect(try sandbox.servedClient(app: Self.appA, ["sign-with", "app.signing"]).stdout == "signed\n")
        #expect(try sandbox.servedClient(["sign-with", "app.signing"]).stdout == "status -25300\n")
    }

    @Test func anExecutableRuleNamesTheExactBytes() throws {
        let sandbox = try Self.startKeeper()
        let copy = sandbox.home.appendingPathComponent("bin/team-tool")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try BuiltProduct.url("keychain-served-client"), to: copy)
        try sandbox.writePolicyRule("team.conf", """
        executable = \(copy.path)
        executable-sha256 = \(try Self.sha256(of: copy, in: sandbox))
        keychain-access-groups = team.example
        """)
        let added = try sandbox.run(copy.path, ["add", "deploy", "ci", "token"], environment: Self.served(sandbox))
        try #require(added.stdout == "ok\n", "\(added)\n\(sandbox.log)")
        #expect(try sandbox.run(copy.path, ["find", "deploy", "ci", "team.example"], environment: Self.served(sandbox)).stdout
            == "found token\n")
        // The shared group is not the rule's: the host's other programs do not see the item.
        #expect(try sandbox.servedClient(["find", "deploy", "ci"]).stdout == "status -25300\n")

        // One byte more and it is another program: unknown, so the shared group only.
        let handle = try FileHandle(forWritingTo: copy)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let changed = try sandbox.run(copy.path, ["find", "deploy", "ci", "team.example"], environment: Self.served(sandbox))
        #expect(changed.stdout == "status -34018\n", "\(changed)")
        #expect(sandbox.log.contains("fingerprint changed"), "\(sandbox.log)")
    }

    /// A connection made by one process and used by another after the first exited is refused:
    /// the identity was the first's. The connection is handed down by fork, the maker exits and
    /// is reaped, and only then does the heir send. The control run sends while the maker lives.
    @Test(arguments: [false, true])
    func aConnectionWhoseMakerExitedIsRefused(makerExits: Bool) throws {
        let sandbox = try Self.startKeeper()
        let result = try sandbox.askFromAnHeir(makerExits: makerExits, prelude: Self.rawRequests, connect: "connect()",
                                               ask: "call(s, find_any)")
        #expect(result.stdout == (makerExits ? "-34018\n" : "-25300\n"), "\(result)\n\(sandbox.log)")
    }

    /// Half a message, a hostile length, junk and a thousand idle connections are each a
    /// connection of their own: the keeper answers another client meanwhile and stays up.
    @Test func brokenAndIdleClientsDoNotStopOthers() throws {
        let sandbox = try Self.startKeeper()
        #expect(try sandbox.servedClient(["add", "svc", "acct", "value"]).stdout == "ok\n")
        let result = try sandbox.python(Self.rawRequests + """
        import resource, subprocess, sys
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
        idle = [connect() for _ in range(1000)]
        half = connect(); half.sendall(b'\\x00\\x00')
        cut = connect(); cut.sendall((100).to_bytes(4, 'big') + b'\\x01\\x02')
        huge = connect(); huge.sendall((0xffffffff).to_bytes(4, 'big'))
        junk = connect(); junk.sendall((5).to_bytes(4, 'big') + b'\\x01\\x09\\x09\\x09\\x09')
        print('huge', status(huge.recv(100)))
        print('junk', status(junk.recv(100)))
        found = subprocess.run([sys.argv[1], 'find', 'svc', 'acct'], capture_output=True, text=True)
        print(found.stdout.strip())
        print('idle still served', call(idle[0], find_any), call(idle[-1], find_any))
        """, arguments: [try BuiltProduct.url("keychain-served-client").path], environment: Self.served(sandbox))
        #expect(result.stdout == "huge -26275\njunk -26275\nfound value\nidle still served 0 0\n", "\(result)\n\(sandbox.log)")
        #expect(try sandbox.servedClient(["find", "svc", "acct"]).stdout == "found value\n")
    }

    @Test func aKeeperThatIsDownIsNotAvailableAndNoFileIsOpened() throws {
        let sandbox = try DaemonSandbox(nil)
        let result = try sandbox.servedClient(["add", "svc", "acct", "value"])
        #expect(result.stdout == "status -25291\n", "\(result)")
        let keychains = URL(fileURLWithPath: sandbox.environment["XDG_DATA_HOME"]!).appendingPathComponent("keychains")
        #expect(!FileManager.default.fileExists(atPath: keychains.path))
        // A setting that is not one is an error too, never the file.
        let wrong = try sandbox.run(try BuiltProduct.url("keychain-served-client").path, ["services"],
                                    environment: ["SWIFT_KEYCHAIN_KEEPER": "sevred"])
        #expect(wrong.stdout == "status -50\n", "\(wrong)")
        #expect(!FileManager.default.fileExists(atPath: keychains.path))
    }

    /// The seed articles' programs, built for Apple platforms and run embedded by the end-to-end
    /// suites, run served with nothing changed but the environment.
    @Test func theSeedProgramsRunServedUnchanged() throws {
        let sandbox = try Self.startKeeper()
        let manager = try sandbox.run(try BuiltProduct.url("seed-keychain-manager").path, [], environment: Self.served(sandbox))
        #expect(manager.status == 0, "\(manager)\n\(sandbox.log)")
        for line in ["取得したパスワード: yourSecurePassword", "更新後のパスワード: newSecurePassword",
                     "読み出しパスワード: initialPassword123", "削除後のパスワードは見つかりませんでした。"] {
            #expect(manager.stdout.contains(line), "\(manager)")
        }
        let internet = try sandbox.run(try BuiltProduct.url("seed-internet-password").path, [], environment: Self.served(sandbox))
        #expect(internet.status == 0, "\(internet)\n\(sandbox.log)")
        // Served means through the keeper: with it stopped, the same program fails at once.
        _ = sandbox.stop()
        let stopped = try sandbox.run(try BuiltProduct.url("seed-keychain-manager").path, [], environment: Self.served(sandbox))
        #expect(!stopped.stdout.contains("取得したパスワード: yourSecurePassword"), "\(stopped)")
    }

    /// git's credential helper is a SecItem program too: served, it stores and finds through the
    /// keeper, which can identify it because a served helper stays dumpable.
    @Test func gitsCredentialHelperIsServed() throws {
        let sandbox = try Self.startKeeper()
        let helper = try BuiltProduct.url("git-credential-keychain").path
        let stored = try sandbox.run(helper, ["store"], stdin: "protocol=https\nhost=git.example.com\nusername=ann\npassword=pat-123\n\n",
                                     environment: Self.served(sandbox))
        #expect(stored.status == 0, "\(stored)\n\(sandbox.log)")
        let got = try sandbox.run(helper, ["get"], stdin: "protocol=https\nhost=git.example.com\n\n", environment: Self.served(sandbox))
        #expect(got.stdout.contains("password=pat-123"), "\(got)\n\(sandbox.log)")
        #expect(!sandbox.log.contains("could not be identified"), "\(sandbox.log)")
    }

    // MARK: - Helpers

    static func served(_ sandbox: DaemonSandbox) -> [String: String] { ["SWIFT_KEYCHAIN_KEEPER": "served"] }

    /// Python that speaks the keeper's framing: `connect()`, `call(socket, request)` giving the
    /// answer's status, and `find_any`, a SecItemCopyMatching of any generic password.
    static let rawRequests = """
    import os, socket, time
    def connect():
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(os.environ['XDG_RUNTIME_DIR'] + '/keychain/keeper')
        return s
    def text(value):
        b = value.encode()
        return bytes([6]) + len(b).to_bytes(4, 'big') + b
    find_any = bytes([1, 2, 10]) + (1).to_bytes(4, 'big') + text('class') + text('genp') + bytes([0, 0])
    def status(answer):
        return int.from_bytes(answer[5:9], 'big', signed=True) if len(answer) >= 9 else 'closed'
    def call(s, request):
        s.sendall(len(request).to_bytes(4, 'big') + request)
        return status(s.recv(100))

    """

    static func sha256(of file: URL, in sandbox: DaemonSandbox) throws -> String {
        let result = try sandbox.run("/usr/bin/sha256sum", [file.path])
        return String(result.stdout.split(separator: " ").first ?? "")
    }
}

extension DaemonSandbox {
    /// The SecItem test client, served by this sandbox's keeper, on the host.
    @discardableResult
    func servedClient(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ClientResult {
        try run(try BuiltProduct.url("keychain-served-client").path, arguments,
                environment: ["SWIFT_KEYCHAIN_KEEPER": "served"].merging(extra) { $1 })
    }

    /// The same client as the Flatpak app `appID`: its binary and the Swift runtime bound into
    /// the root read-only, beside what every sandboxed client gets.
    @discardableResult
    func servedClient(app appID: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> ClientResult {
        let client = try BuiltProduct.url("keychain-served-client").resolvingSymlinksInPath().path
        let runtime = "/opt/swift"
        var binds = ["--ro-bind", client, client]
        if FileManager.default.fileExists(atPath: runtime) { binds += ["--ro-bind", runtime, runtime] }
        var prefix: [String] = []
        for (name, value) in ["SWIFT_KEYCHAIN_KEEPER": "served"].merging(extra, uniquingKeysWith: { $1 }) {
            prefix += ["--setenv", name, value]
        }
        return try sandboxed(info: Self.flatpakInfo(appID), client, arguments, extraBwrapArguments: binds + prefix)
    }
}
