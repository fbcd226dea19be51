import Foundation
import KeychainLocking
package import KeychainStore
package import KeychainSockets
#if canImport(Glibc)
import Glibc
#endif

/// Why the agent's socket could not be made: the listener's own error.
package typealias SSHAgentServerError = UnixSocketError

/// Who is at the other end of one of the agent's connections, as the kernel tells it: the
/// identity its requests are answered with, and whether the process that connected has exited
/// (then the connection was inherited or passed on, and its identity says nothing of the sender).
package struct SSHAgentCaller: Sendable {
    package let identity: ClientIdentity
    /// How a prompt names it ("The program /usr/bin/ssh"), from the kernel.
    package let program: String
    package let hasExited: @Sendable () -> Bool

    package init(identity: ClientIdentity, program: String, hasExited: @escaping @Sendable () -> Bool) {
        self.identity = identity
        self.program = program
        self.hasExited = hasExited
    }
}

/// Serves an ``SSHAgent`` on a Unix socket (``UnixSocketListener``: a folder of mode 0700
/// holding the socket, of mode 0600, each connection answered on a thread of its own, so that a
/// confirmation prompt on one does not hold the others up, and a peer of another user
/// disconnected before it is read).
///
/// Framing (draft-miller-ssh-agent, section 3): each message is a 32-bit length and that many
/// bytes. A length of zero or above ``sshAgentMaximumMessageLength`` is answered with a failure
/// and the connection is closed, since what follows cannot be trusted to be a message boundary.
package final class SSHAgentServer: Sendable {
    package var socketPath: String { listener.socketPath }
    let agent: SSHAgent
    let listener: UnixSocketListener
    private let lastPurge = Locked(Date())
    /// Told of refused peers and of connections that break the framing; never of what was sent.
    let report: @Sendable (String) -> Void
    /// Resolves a new connection's caller, once, before its first message is read; nil for a
    /// caller that cannot be identified, whose every request then fails. Without it, every
    /// connection is answered with the agent's own identity.
    let identify: (@Sendable (_ connection: Int32) -> SSHAgentCaller?)?

    /// `$XDG_RUNTIME_DIR/keychain/ssh-agent`, or nil without a runtime folder.
    package static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/keychain/ssh-agent"
    }

    /// The line that points a shell at this agent.
    package var environmentLine: String { "SSH_AUTH_SOCK=\(socketPath); export SSH_AUTH_SOCK;" }

    package init(agent: SSHAgent, socketPath: String, identify: (@Sendable (_ connection: Int32) -> SSHAgentCaller?)? = nil,
                 report: @escaping @Sendable (String) -> Void = { _ in }) throws(SSHAgentServerError) {
        self.agent = agent
        self.report = report
        self.identify = identify
        listener = try UnixSocketListener(socketPath: socketPath, backlog: 16)
    }

    /// Accepts connections on a thread of its own until ``stop()``.
    package func start() {
        listener.start(name: "ssh-agent", report: report, idle: { [self] in purgeExpiredKeys() }) { [self] connection, _ in
            serve(connection)
        }
    }

    /// Stops accepting and removes the socket. Connections already open finish their message.
    package func stop() { listener.stop() }

    /// Keys past their lifetime are deleted at each use; this deletes them while idle, and
    /// lets go of the parsed keys unused for a while.
    private func purgeExpiredKeys() {
        let due = lastPurge.withLock { last -> Bool in
            guard Date().timeIntervalSince(last) >= 30 else { return false }
            last = Date()
            return true
        }
        guard due else { return }
        agent.keys.cache.removeIdle()
        // Every group's keys: an expired key of an application's own group goes too.
        try? (agent.keys.seen(by: .administrator()) ?? agent.keys).deleteExpired()
    }

    /// Answers one connection's messages until it closes or breaks the framing.
    func serve(_ connection: Int32) {
        defer { close(connection) }
        let caller = identify.map { $0(connection) }
        if case .some(.none) = caller { report("refusing the requests of a client that could not be identified") }
        while true {
            switch SocketIO.readMessage(connection, maximumLength: sshAgentMaximumMessageLength) {
            case .closed:
                return
            case .tooLong(let length):
                report("closed a connection that sent a message length of \(length)")
                _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(SSHAgent.failure))
                return
            case .message(let body):
                switch caller {
                case .none:
                    guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(agent.respond(to: body))) else { return }
                case .some(.none):
                    _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(SSHAgent.failure))
                    return
                case .some(.some(let caller)) where caller.hasExited():
                    report("refused a request on a connection whose process has exited")
                    _ = SocketIO.writeAll(connection, SocketIO.lengthPrefixed(SSHAgent.failure))
                    return
                case .some(.some(let caller)):
                    guard SocketIO.writeAll(connection, SocketIO.lengthPrefixed(agent.respond(to: body, caller: caller))) else { return }
                }
            }
        }
    }
}
