import CKeychainSystem
import Foundation
import KeychainLocking
#if canImport(Glibc)
import Glibc
#endif

/// Why the agent's socket could not be made.
package struct SSHAgentServerError: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(description: String) { self.description = description }
}

/// Serves an ``SSHAgent`` on a Unix socket: a folder of mode 0700 holding the socket, of mode
/// 0600, each connection answered on a thread of its own (a confirmation prompt on one does not
/// hold the others up), and every peer checked with `SO_PEERCRED`: a process of another user is
/// disconnected before it is read, whatever the file modes let through.
///
/// Framing (draft-miller-ssh-agent, section 3): each message is a 32-bit length and that many
/// bytes. A length of zero or above ``sshAgentMaximumMessageLength`` is answered with a failure
/// and the connection is closed, since what follows cannot be trusted to be a message boundary.
package final class SSHAgentServer: Sendable {
    package let socketPath: String
    let agent: SSHAgent
    let listener: Int32
    private let stopped = Locked(false)
    /// Told of refused peers and of connections that break the framing; never of what was sent.
    let report: @Sendable (String) -> Void

    /// `$XDG_RUNTIME_DIR/keychain/ssh-agent`, or nil without a runtime folder.
    package static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/keychain/ssh-agent"
    }

    /// The line that points a shell at this agent.
    package var environmentLine: String { "SSH_AUTH_SOCK=\(socketPath); export SSH_AUTH_SOCK;" }

    /// Makes the folder (or checks the one there: a directory of ours, not a link, then set to
    /// 0700), replaces a stale socket, binds and listens.
    package init(agent: SSHAgent, socketPath: String, report: @escaping @Sendable (String) -> Void = { _ in }) throws(SSHAgentServerError) {
        self.agent = agent
        self.socketPath = socketPath
        self.report = report
        let folder = (socketPath as NSString).deletingLastPathComponent
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw SSHAgentServerError(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            throw SSHAgentServerError(description: "\(folder) is not a folder of this user")
        }
        guard chmod(folder, 0o700) == 0 else {
            throw SSHAgentServerError(description: "cannot set the mode of \(folder)")
        }
        if lstat(socketPath, &info) == 0 {
            // Only a socket is replaced (one left by an agent that did not stop cleanly).
            guard info.st_mode & S_IFMT == S_IFSOCK, unlink(socketPath) == 0 else {
                throw SSHAgentServerError(description: "\(socketPath) exists and is not a socket")
            }
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SSHAgentServerError(description: "the socket path is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SSHAgentServerError(description: "no socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // The folder already keeps others out; 0600 on the socket says the same a second time.
        guard bound == 0, chmod(socketPath, 0o600) == 0, listen(descriptor, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw SSHAgentServerError(description: "cannot listen on \(socketPath): \(reason)")
        }
        listener = descriptor
    }

    /// Accepts connections on a thread of its own until ``stop()``.
    package func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ssh-agent"
        thread.start()
    }

    /// Stops accepting and removes the socket. Connections already open finish their message.
    package func stop() {
        let wasStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        guard !wasStopped else { return }
        unlink(socketPath)
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func acceptLoop() {
        var lastPurge = Date()
        while !isStopped {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 1000)
            if isStopped { break }
            if ready == 0 {
                // Keys past their lifetime are deleted at each use; this deletes them while idle.
                if Date().timeIntervalSince(lastPurge) >= 30 {
                    lastPurge = Date()
                    _ = try? agent.keys.entries()
                }
                continue
            }
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EAGAIN { continue }
                if isStopped { break }
                report("accept failed: \(String(cString: strerror(errno)))")
                usleep(100_000)
                continue
            }
            // Not inherited by the pinentry that keychaind starts for a confirmation.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
            guard cks_peer_credentials(connection, &pid, &uid, &gid) == 0, uid == geteuid() else {
                report("refused a connection from uid \(uid) (pid \(pid))")
                close(connection)
                continue
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
        close(listener)
    }

    /// Answers one connection's messages until it closes or breaks the framing.
    func serve(_ connection: Int32) {
        defer { close(connection) }
        while true {
            guard let header = readExactly(connection, 4) else { return }
            let length = header.reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, length <= sshAgentMaximumMessageLength else {
                report("closed a connection that sent a message length of \(length)")
                _ = writeMessage(connection, SSHAgent.failure)
                return
            }
            guard let body = readExactly(connection, length) else { return }
            guard writeMessage(connection, agent.respond(to: body)) else { return }
        }
    }

    private func readExactly(_ connection: Int32, _ count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            filled += got
        }
        return buffer
    }

    private func writeMessage(_ connection: Int32, _ body: [UInt8]) -> Bool {
        var writer = SSHWireWriter()
        writer.writeString(body)
        let bytes = writer.bytes
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { return false }
            sent += wrote
        }
        return true
    }
}
