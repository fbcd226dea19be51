import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychaind on a machine without a session bus (a server, a login without D-Bus):
/// `--keeper --no-secret-service` serves SecItem over its socket and the SSH agent without one,
/// and stops on SIGTERM; `--no-secret-service` alone serves nothing and is refused.
@Suite struct NoBusKeeperTests {
    @Test func theKeeperAndTheAgentRunWithoutASessionBus() throws {
        let sandbox = try DaemonSandbox(nil)
        let runtime = sandbox.environment["XDG_RUNTIME_DIR"]!
        try sandbox.startWithoutBus(arguments: ["--keeper", "--ssh-agent", "--no-secret-service"], socket: runtime + "/keychain/keeper")
        let served = ["DBUS_SESSION_BUS_ADDRESS": ""]
        #expect(try sandbox.servedClient(["add", "server", "deploy", "token"], environment: served).stdout == "ok\n", "\(sandbox.log)")
        #expect(try sandbox.servedClient(["find", "server", "deploy"], environment: served).stdout == "found token\n")
        let listed = try sandbox.run("/usr/bin/ssh-add", ["-l"], environment: ["SSH_AUTH_SOCK": runtime + "/keychain/ssh-agent"])
        #expect(listed.status == 1 && listed.stdout.contains("no identities"), "\(listed)\n\(sandbox.log)")
        // Nobody took the Secret Service's name on the sandbox's bus.
        #expect(try sandbox.owner(of: "org.freedesktop.secrets") == nil)
        #expect(sandbox.stop() == 0, "\(sandbox.log)")
        #expect(!FileManager.default.fileExists(atPath: runtime + "/keychain/keeper"), "the socket outlived keychaind")
    }

    @Test func noSecretServiceAloneIsRefused() throws {
        let sandbox = try DaemonSandbox(nil)
        let refused = try sandbox.run(try BuiltProduct.url("keychaind").path, ["--no-secret-service"])
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("--keeper"), "\(refused)")
    }
}
