import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A keychaind that runs as an ordinary user (not root, so without `CAP_SYS_PTRACE`) cannot open
/// the root of a client of its user that made itself not dumpable: it cannot tell whether the
/// client runs in a sandbox, and a sandboxed app can make itself not dumpable too. Such a client
/// is refused with `AccessDenied` and a message that says why, never served as a host program.
@Suite(.enabled(if: OtherUser.canRun, "needs root and setpriv, to run keychaind and its client as another user"))
struct NonDumpableClientTests {
    /// Asks `SearchItems` over jeepney (Debian's), after `PR_SET_DUMPABLE` 0 when `argv[1]` says
    /// so, and prints `served` or `refused NAME: MESSAGE`.
    static let client = """
    import ctypes, sys
    from jeepney import DBusAddress, new_method_call, MessageType, HeaderFields
    from jeepney.io.blocking import open_dbus_connection
    if sys.argv[1] == 'undumpable':
        PR_SET_DUMPABLE = 4
        assert ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    conn = open_dbus_connection(bus='SESSION')
    service = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets', interface='org.freedesktop.Secret.Service')
    reply = conn.send_and_get_reply(new_method_call(service, 'SearchItems', 'a{ss}', ({'service': 'vault'},)))
    if reply.header.message_type == MessageType.error:
        print('refused', reply.header.fields[HeaderFields.error_name] + ':', reply.body[0] if reply.body else '')
    else:
        print('served', reply.body)
    """

    @Test func aClientThatIsNotDumpableIsRefusedSayingWhy() throws {
        let ids = try #require(OtherUser.ids)
        // A bus every user may reach, with nothing on it yet; keychaind joins it as `nobody`.
        let sandbox = try DaemonSandbox(nil, busOpenToEveryUser: true)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-nobody-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(chown(home.path, ids.uid, ids.gid) == 0)
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": home.path, "LANG": "C.UTF-8",
            "DBUS_SESSION_BUS_ADDRESS": sandbox.busAddress,
        ]
        let (setpriv, daemonArguments) = try OtherUser.command(try BuiltProduct.url("keychaind").path, [])
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: setpriv)
        daemon.arguments = daemonArguments
        daemon.environment = environment
        let log = home.appendingPathComponent("keychaind.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        daemon.standardError = try FileHandle(forWritingTo: log)
        daemon.standardOutput = FileHandle.nullDevice
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            _ = daemon.waitForExit()
        }
        var owner: String?
        for _ in 0..<500 where owner == nil && daemon.isRunning {
            owner = try sandbox.owner(of: "org.freedesktop.secrets")
            if owner == nil { usleep(20_000) }
        }
        try #require(owner != nil, "keychaind as nobody did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")

        func ask(_ mode: String) throws -> ClientResult {
            let (setpriv, arguments) = try OtherUser.command("/usr/bin/python3", ["-c", Self.client, mode])
            return try sandbox.run(setpriv, arguments, environment: environment)
        }
        // The same client, dumpable, is a host program of keychaind's user: served.
        let dumpable = try ask("dumpable")
        #expect(dumpable.stdout.hasPrefix("served"), "\(dumpable)")
        let undumpable = try ask("undumpable")
        #expect(undumpable.stdout.hasPrefix("refused org.freedesktop.DBus.Error.AccessDenied"), "\(undumpable)")
        #expect(undumpable.stdout.contains("not dumpable"), "\(undumpable)")
    }
}
