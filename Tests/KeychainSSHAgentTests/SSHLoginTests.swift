import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real login: an `sshd` of the test's own on a loopback port with a temporary configuration,
/// and `ssh` whose only key is the agent's. It logs in through the agent, and not while the
/// keychain is locked.
@Suite(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd"),
                "needs root and Debian's openssh-server, to run sshd"))
struct SSHLoginTests {
    @Test(arguments: [SSHKeyKind.ecdsa256, .rsa2048, .ed25519])
    func sshLogsInThroughTheAgent(_ kind: SSHKeyKind) throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(kind)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        let publicOnly = sandbox.home.appendingPathComponent("login-key", isDirectory: true)
        try FileManager.default.createDirectory(at: publicOnly, withIntermediateDirectories: true)
        let identity = publicOnly.appendingPathComponent("id.pub")
        try FileManager.default.moveItem(at: URL(fileURLWithPath: file.path + ".pub"), to: identity)
        try FileManager.default.removeItem(at: file)

        let server = try SSHServer(in: sandbox.home, authorizedKey: try String(contentsOf: identity, encoding: .utf8))
        defer { server.stop() }
        func login() throws -> ProgramResult {
            try sandbox.run("/usr/bin/ssh", ["-F", "/dev/null", "-p", String(server.port),
                                             "-o", "IdentityAgent=\(sandbox.server.socketPath)", "-o", "IdentitiesOnly=yes",
                                             "-o", "IdentityFile=\(identity.path)", "-o", "BatchMode=yes",
                                             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                                             "-o", "PasswordAuthentication=no", "-o", "KbdInteractiveAuthentication=no",
                                             "-o", "LogLevel=ERROR",
                                             "\(String(cString: getpwuid(geteuid()).pointee.pw_name))@127.0.0.1", "echo logged-in"])
        }
        let first = try login()
        #expect(first.status == 0 && first.stdout.contains("logged-in"), "\(first)\nsshd: \(server.log)")

        try sandbox.keychain.file.setPassword("keychain password", currentPassword: nil)
        sandbox.keychain.file.lock()
        let locked = try login()
        #expect(locked.status != 0 && !locked.stdout.contains("logged-in"), "\(locked)")
        try sandbox.keychain.file.unlock(password: "keychain password")
        #expect(try login().status == 0)
    }
}

/// `sshd -D -e` on 127.0.0.1 with a host key, an authorized_keys file and a configuration of
/// its own in `folder`, public keys only, no PAM.
final class SSHServer {
    let port: Int
    let process = Process()
    let logURL: URL

    init(in folder: URL, authorizedKey: String) throws {
        let hostKey = folder.appendingPathComponent("sshd_host_key")
        let made = Process()
        made.executableURL = URL(fileURLWithPath: "/usr/bin/ssh-keygen")
        made.arguments = ["-q", "-t", "ecdsa", "-N", "", "-f", hostKey.path]
        try made.run()
        try #require(made.waitForExit().terminationStatus == 0)
        let authorized = folder.appendingPathComponent("authorized_keys")
        try authorizedKey.write(to: authorized, atomically: true, encoding: .utf8)
        port = try Self.freePort()
        let config = folder.appendingPathComponent("sshd_config")
        try """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(hostKey.path)
        PidFile none
        AuthorizedKeysFile \(authorized.path)
        PermitRootLogin prohibit-password
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no

        """.write(to: config, atomically: true, encoding: .utf8)
        // sshd's privilege separation folder, which the package's service would make at boot.
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        logURL = folder.appendingPathComponent("sshd.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/sshd")
        process.arguments = ["-D", "-e", "-f", config.path]
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        Issue.record("sshd did not listen: \(log)")
        throw CocoaError(.fileReadUnknown)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = process.waitForExit()
    }

    /// A port the kernel just handed out on 127.0.0.1 (bound, read, released).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: 0, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        try #require(bound, "no free port")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: UInt16(port).bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
