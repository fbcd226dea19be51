import Foundation
import Testing

/// keychaind's SSH agent answers each connection with the access groups its caller's identity
/// earns, as the keeper does (docs/ssh-agent.md "Who may use it"): a sandboxed app (bubblewrap
/// with a written `/.flatpak-info`) lists, signs with and deletes only the keys of its own
/// group, and a key it adds stays there; a host program does not see the app's keys.
@Suite(.enabled(if: DaemonSandbox.canMakeSandboxes, "needs bubblewrap (scripts/install-system-packages.sh)"))
struct SSHAgentIsolationTests {
    static let appA = "org.example.SSHApp"
    static let appB = "org.example.Other"

    static func agentSandbox() throws -> DaemonSandbox {
        let sandbox = try DaemonSandbox(nil)
        try sandbox.start(arguments: ["--ssh-agent"])
        return sandbox
    }

    static func socket(_ sandbox: DaemonSandbox) -> String {
        sandbox.home.appendingPathComponent("keychain/ssh-agent").path
    }

    /// An OpenSSH program on the host, pointed at the agent.
    static func host(_ sandbox: DaemonSandbox, _ program: String, _ arguments: [String]) throws -> ClientResult {
        try sandbox.run("/usr/bin/" + program, arguments, environment: ["SSH_AUTH_SOCK": socket(sandbox)])
    }

    /// The same program run as the Flatpak app `appID`.
    static func app(_ appID: String, _ sandbox: DaemonSandbox, _ program: String, _ arguments: [String]) throws -> ClientResult {
        try sandbox.sandboxed(info: DaemonSandbox.flatpakInfo(appID), "/usr/bin/" + program, arguments,
                              extraBwrapArguments: ["--setenv", "SSH_AUTH_SOCK", socket(sandbox)])
    }

    /// Makes a key file in the sandbox's home, which the apps' roots see too.
    static func keyFile(_ name: String, in sandbox: DaemonSandbox) throws -> String {
        let key = sandbox.home.appendingPathComponent(name).path
        let made = try sandbox.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", key])
        try #require(made.status == 0, "\(made)")
        return key
    }

    /// `ssh-keygen -Y sign` of a message with the key whose public half is `key.pub`, run by
    /// `signer`. The private key file must be gone by then, or ssh-keygen signs with it itself.
    static func sign(with key: String, in sandbox: DaemonSandbox,
                     by signer: (_ program: String, _ arguments: [String]) throws -> ClientResult) throws -> ClientResult {
        let message = sandbox.home.appendingPathComponent("message-\(UUID().uuidString)").path
        try "isolated\n".write(toFile: message, atomically: true, encoding: .utf8)
        return try signer("ssh-keygen", ["-Y", "sign", "-f", key + ".pub", "-n", "file", message])
    }

    @Test func anAppUsesOnlyTheKeysOfItsOwnGroup() throws {
        let sandbox = try Self.agentSandbox()
        let hostKey = try Self.keyFile("host-key", in: sandbox)
        let appKey = try Self.keyFile("app-key", in: sandbox)
        let added = try Self.host(sandbox, "ssh-add", [hostKey])
        try #require(added.status == 0, "\(added)\n\(sandbox.log)")
        try FileManager.default.removeItem(atPath: hostKey)

        // The app sees no key of the host's and cannot sign with one.
        let appList = try Self.app(Self.appA, sandbox, "ssh-add", ["-l"])
        #expect(appList.status == 1 && !appList.stdout.contains("host-key"), "\(appList)\n\(sandbox.log)")
        #expect(try Self.sign(with: hostKey, in: sandbox) { try Self.app(Self.appA, sandbox, $0, $1) }.status != 0)

        // A key the app adds goes into its own group: it lists and signs with it, the host and
        // another app see nothing of it.
        let appAdded = try Self.app(Self.appA, sandbox, "ssh-add", [appKey])
        try #require(appAdded.status == 0, "\(appAdded)\n\(sandbox.log)")
        try FileManager.default.removeItem(atPath: appKey)
        let listedByApp = try Self.app(Self.appA, sandbox, "ssh-add", ["-l"])
        #expect(listedByApp.stdout.contains("app-key") && !listedByApp.stdout.contains("host-key"), "\(listedByApp)")
        let signedByApp = try Self.sign(with: appKey, in: sandbox) { try Self.app(Self.appA, sandbox, $0, $1) }
        #expect(signedByApp.status == 0, "\(signedByApp)\n\(sandbox.log)")
        let listedByHost = try Self.host(sandbox, "ssh-add", ["-l"])
        #expect(listedByHost.stdout.contains("host-key") && !listedByHost.stdout.contains("app-key"), "\(listedByHost)")
        #expect(try Self.sign(with: appKey, in: sandbox) { try Self.host(sandbox, $0, $1) }.status != 0)
        #expect(try Self.app(Self.appB, sandbox, "ssh-add", ["-l"]).status == 1)
        #expect(try Self.sign(with: appKey, in: sandbox) { try Self.app(Self.appB, sandbox, $0, $1) }.status != 0)

        // Deleting every key deletes only the caller's own.
        #expect(try Self.app(Self.appB, sandbox, "ssh-add", ["-D"]).status == 0)
        #expect(try Self.app(Self.appA, sandbox, "ssh-add", ["-l"]).stdout.contains("app-key"))
        #expect(try Self.app(Self.appA, sandbox, "ssh-add", ["-D"]).status == 0)
        #expect(try Self.app(Self.appA, sandbox, "ssh-add", ["-l"]).status == 1)
        #expect(try Self.host(sandbox, "ssh-add", ["-l"]).stdout.contains("host-key"))
    }

    /// A rule of the caller policy that gives a host program the app's group lets it use the
    /// app's key: the agent decides by the same policy as every other door.
    @Test func aPolicyRuleSharesAnAppsKeys() throws {
        let sandbox = try Self.agentSandbox()
        let appKey = try Self.keyFile("shared-key", in: sandbox)
        try #require(try Self.app(Self.appA, sandbox, "ssh-add", [appKey]).status == 0)
        try FileManager.default.removeItem(atPath: appKey)
        #expect(try Self.sign(with: appKey, in: sandbox) { try Self.host(sandbox, $0, $1) }.status != 0)
        let keygen = URL(fileURLWithPath: "/usr/bin/ssh-keygen").resolvingSymlinksInPath()
        let digest = try sandbox.run("/usr/bin/sha256sum", [keygen.path]).stdout.split(separator: " ").first.map(String.init) ?? ""
        try sandbox.writePolicyRule("ssh-keygen.conf", """
        executable = \(keygen.path)
        executable-sha256 = \(digest)
        keychain-access-groups = swift-keychain.shared, flatpak.\(Self.appA)
        """)
        let signed = try Self.sign(with: appKey, in: sandbox) { try Self.host(sandbox, $0, $1) }
        #expect(signed.status == 0, "\(signed)\n\(sandbox.log)")
        // ssh-add has no rule: it still lists nothing of the app's.
        #expect(!(try Self.host(sandbox, "ssh-add", ["-l"]).stdout.contains("shared-key")))
    }

    /// Python that asks an agent for its keys: `connect(path)`, and `identities(s)` giving the
    /// answer's type byte.
    static let identitiesRequest = """
    import socket
    def connect(path):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        return s
    def identities(s):
        s.sendall((1).to_bytes(4, 'big') + bytes([11]))
        answer = s.recv(100)
        return answer[4] if len(answer) > 4 else 'closed'

    """

    /// A connection made by one process and used by another after the first exited is refused,
    /// since its identity was the first's: the connection is handed down by fork, the maker exits
    /// and is reaped, and only then does the heir ask for the keys. The control run asks while
    /// the maker lives and gets the list (an answer of type 12, not a failure, 5).
    @Test(arguments: [false, true])
    func aConnectionWhoseMakerExitedIsRefused(makerExits: Bool) throws {
        let sandbox = try Self.agentSandbox()
        let result = try sandbox.askFromAnHeir(makerExits: makerExits, prelude: Self.identitiesRequest, connect: "connect(sys.argv[1])",
                                               ask: "identities(s)", arguments: [Self.socket(sandbox)])
        #expect(result.stdout == (makerExits ? "5\n" : "12\n"), "\(result)\n\(sandbox.log)")
    }
}
