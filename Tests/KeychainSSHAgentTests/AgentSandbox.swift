import Foundation
import KeychainSSHAgent
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one run of an OpenSSH program left.
struct ProgramResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// The answers the test gives to confirmation prompts, and the comments it was asked about.
final class ConfirmationDesk: @unchecked Sendable {
    private let lock = NSLock()
    private var answer = true
    private var asked: [String] = []

    func answer(_ value: Bool) { lock.withLock { answer = value } }
    var questions: [String] { lock.withLock { asked } }

    func ask(_ comment: String) -> Bool {
        lock.withLock {
            asked.append(comment)
            return answer
        }
    }
}

/// An agent over a private keychain, served on a socket in a fresh folder, and the real
/// OpenSSH programs run against it (`SSH_AUTH_SOCK` pointing there, `HOME` in the folder, so
/// that no key or configuration of the machine is seen).
final class AgentSandbox: @unchecked Sendable {
    let keychain: TestKeychain
    let home: URL
    let server: SSHAgentServer
    let desk = ConfirmationDesk()
    let agent: SSHAgent

    /// Who answers the password prompt of a key that needs the user at each use.
    let presenceUser: ScriptedUser

    /// `keychainOnDisk`: the keychain's device key is a file, so that keychainctl can open it too.
    /// `presenceUser`: the scripted person asked for the keychain password by such a key.
    init(keychainOnDisk: Bool = false, presenceUser: ScriptedUser = ScriptedUser(.cancel)) throws {
        self.presenceUser = presenceUser
        keychain = try TestKeychain(deviceKeyOnDisk: keychainOnDisk)
        home = keychain.directory.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let desk = desk
        agent = SSHAgent(keys: SSHKeychainKeys(context: keychain.context), confirm: { comment, _, _ in desk.ask(comment) },
                         presencePrompt: { _, _ in presenceUser.authenticator })
        server = try SSHAgentServer(agent: agent, socketPath: keychain.directory.appendingPathComponent("agent/ssh-agent").path)
        server.start()
    }

    deinit { server.stop() }

    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home.path, "SSH_AUTH_SOCK": server.socketPath, "LANG": "C.UTF-8"]
    }

    /// Runs a program; `stdin` is fed from a file.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) throws -> ProgramResult {
        let result = try runFileFed(executable, arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, in: home)
        return ProgramResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @discardableResult
    func sshAdd(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProgramResult {
        try run("/usr/bin/ssh-add", arguments, environment: extra)
    }

    /// A key made by `ssh-keygen` (no passphrase) in the home folder; returns its private key file.
    func makeKey(_ kind: SSHKeyKind) throws -> URL {
        let file = home.appendingPathComponent("id_\(kind.name)")
        let made = try run("/usr/bin/ssh-keygen", ["-q", "-t", kind.type, "-b", String(kind.bits), "-N", "", "-C", kind.comment, "-f", file.path])
        try #require(made.status == 0, "\(made)")
        return file
    }

    /// The public key line of a key file (type and base64 blob, without the comment).
    func publicKey(of file: URL) throws -> String {
        let line = try String(contentsOf: URL(fileURLWithPath: file.path + ".pub"), encoding: .utf8)
        return line.split(separator: " ").prefix(2).joined(separator: " ")
    }

    /// Signs `message` with `ssh-keygen -Y sign` given only the public key, so that the
    /// signature can come only from the agent; then verifies it with `ssh-keygen -Y verify`.
    /// Returns the sign result and, when signing worked, the verify result.
    func signAndVerify(with file: URL, message: String = "a message to sign\n") throws -> (sign: ProgramResult, verify: ProgramResult?) {
        // Only the public key, in a folder of its own: ssh-keygen would otherwise find the
        // private key file beside it and sign without the agent.
        let publicOnly = home.appendingPathComponent("public-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: publicOnly, withIntermediateDirectories: true)
        let publicFile = publicOnly.appendingPathComponent(file.lastPathComponent + ".pub")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: file.path + ".pub"), to: publicFile)
        let messageFile = home.appendingPathComponent("message-\(UUID().uuidString)")
        try message.write(to: messageFile, atomically: true, encoding: .utf8)
        let signature = URL(fileURLWithPath: messageFile.path + ".sig")
        try? FileManager.default.removeItem(at: signature)
        let signed = try run("/usr/bin/ssh-keygen", ["-Y", "sign", "-f", publicFile.path, "-n", "file", messageFile.path])
        guard signed.status == 0 else { return (signed, nil) }
        let allowed = home.appendingPathComponent("allowed_signers")
        try "tester@example.com \(try publicKey(of: file))\n".write(to: allowed, atomically: true, encoding: .utf8)
        let verified = try run("/usr/bin/ssh-keygen", ["-Y", "verify", "-f", allowed.path, "-I", "tester@example.com", "-n", "file",
                                                        "-s", signature.path], stdin: message)
        return (signed, verified)
    }

    /// One raw exchange on a new connection: the bytes written as they are, then up to
    /// `readReplies` framed answers read; then whether the agent had closed the connection (a
    /// request for identities written after them gets no answer).
    func exchange(_ messages: [[UInt8]], readReplies: Int) -> (replies: [[UInt8]], closedAfter: Bool) {
        let connection = RawAgentConnection(path: server.socketPath)
        defer { connection.close() }
        for message in messages { connection.write(message) }
        var replies: [[UInt8]] = []
        for _ in 0..<readReplies {
            guard let reply = connection.readMessage() else { return (replies, true) }
            replies.append(reply)
        }
        connection.send(message: [11])
        return (replies, connection.readMessage() == nil)
    }
}

/// The key types the tests make with ssh-keygen.
struct SSHKeyKind: Sendable, CustomStringConvertible {
    let type: String
    let bits: Int
    /// ssh-keygen's type, with the size where the type has more than one.
    var name: String { type == "ed25519" ? type : "\(type)\(bits)" }
    var comment: String { "\(name)@swift-keychain-test" }
    var description: String { name }

    static let ecdsa256 = SSHKeyKind(type: "ecdsa", bits: 256)
    static let ecdsa384 = SSHKeyKind(type: "ecdsa", bits: 384)
    static let ecdsa521 = SSHKeyKind(type: "ecdsa", bits: 521)
    static let rsa2048 = SSHKeyKind(type: "rsa", bits: 2048)
    static let ed25519 = SSHKeyKind(type: "ed25519", bits: 256)
    /// OpenSSH's smallest RSA key, below swift-crypto's checked floor.
    static let rsa1024 = SSHKeyKind(type: "rsa", bits: 1024)
    static let all = [ecdsa256, ecdsa384, ecdsa521, rsa2048, rsa1024, ed25519]
}

/// A client connection that writes whatever bytes a test gives it, for hostile input.
final class RawAgentConnection {
    let descriptor: Int32

    init(path: String) {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // A test must fail, not hang, when the agent does not answer.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Writes one framed message.
    func send(message body: [UInt8]) {
        write(Self.framed(body))
    }

    static func framed(_ body: [UInt8]) -> [UInt8] {
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// One framed answer's body, or nil at the end of the connection.
    func readMessage() -> [UInt8]? {
        guard let header = read(4) else { return nil }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        return read(length)
    }

    private func read(_ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + filled, count - filled, 0) }
            guard got > 0 else { return nil }
            filled += got
        }
        return buffer
    }

    func close() { Glibc.close(descriptor) }
}
