import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychaind started on demand (systemd's socket activation, `dist/systemd/keychaind.socket`):
/// the service manager holds the keeper's socket, the first served call starts keychaind, which
/// serves the keeper on the socket it was passed (with or without `--keeper`) beside the Secret
/// Service, and leaves the socket, the manager's, when it stops. systemd-socket-activate plays
/// the manager.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"),
                "needs systemd-socket-activate (Debian's systemd package)"))
struct KeeperActivationTests {
    @Test func theFirstCallStartsTheKeeper() throws {
        let sandbox = try DaemonSandbox(nil)
        let socket = sandbox.environment["XDG_RUNTIME_DIR"]! + "/keychain/keeper"
        try sandbox.startOnDemand(arguments: ["--no-sync"], socket: socket)
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") == nil, "nothing runs before the first call")
        #expect(try sandbox.servedClient(["add", "server", "deploy", "token"]).stdout == "ok\n", "\(sandbox.log)")
        #expect(try sandbox.servedClient(["find", "server", "deploy"]).stdout == "found token\n")
        #expect(sandbox.log.contains("serving the keeper") && sandbox.log.contains("activated=true"), "\(sandbox.log)")
        // The same keychaind is the session's Secret Service, and its items are the keeper's.
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") != nil, "\(sandbox.log)")
        let looked = try sandbox.run("/usr/bin/secret-tool", ["search", "--all", "service", "server"])
        #expect(looked.stdout.contains("secret = token") || looked.stderr.contains("secret = token"), "\(looked)")
        #expect(sandbox.stop() == 0, "\(sandbox.log)")
        var info = stat()
        #expect(lstat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK, "the manager's socket stays")
    }

    /// What a manager passes that is not one listening Unix socket is refused with its reason,
    /// before anything is served.
    @Test(arguments: [("export LISTEN_PID=$$ LISTEN_FDS=2", "passed 2 sockets"),
                      ("exec 3</etc/hostname; export LISTEN_PID=$$ LISTEN_FDS=1", "not a listening Unix stream socket")])
    func whatIsNotOneListeningSocketIsRefused(_ setUp: String, _ reason: String) throws {
        let sandbox = try DaemonSandbox(nil)
        let keychaind = try BuiltProduct.url("keychaind").path
        let refused = try sandbox.run("/bin/sh", ["-c", setUp + "; exec \"$0\" --no-sync", keychaind])
        #expect(refused.status == 1 && refused.stderr.contains(reason), "\(refused)")
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") == nil)
    }
}
