import Foundation
import KeychainSockets

/// Why a request to an agent failed.
package enum SSHAgentClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The socket could not be reached (errno's text).
    case cannotConnect(path: String, reason: String)
    /// The agent closed the connection or answered with something that is not a reply.
    case noAnswer
    /// The agent answered SSH_AGENT_FAILURE: it refused the key or a constraint.
    case refused

    package var description: String {
        switch self {
        case .cannotConnect(let path, let reason): return "cannot connect to the agent at \(path): \(reason)"
        case .noAnswer: return "the agent did not answer"
        case .refused: return "the agent refused the key (SSH_AGENT_FAILURE)"
        }
    }
}

/// A client of an SSH agent socket (draft-miller-ssh-agent), any agent: keychaind's, OpenSSH's
/// ssh-agent, gpg-agent. It only adds keys, which is what `keychainctl ssh-add` needs.
package struct SSHAgentClient: Sendable {
    package let socketPath: String

    package init(socketPath: String) { self.socketPath = socketPath }

    /// Sends ADD_IDENTITY (ADD_ID_CONSTRAINED when there are constraints) and waits for SUCCESS.
    package func add(_ key: SSHPrivateKey, comment: String, constraints: SSHKeyConstraints = SSHKeyConstraints()) throws(SSHAgentClientError) {
        var body = SSHWireWriter()
        let constrained = constraints.confirm || constraints.lifetime != nil
        body.writeByte(constrained ? SSHAgentMessageNumber.addIdentityConstrained : SSHAgentMessageNumber.addIdentity)
        key.write(to: &body)
        body.writeString(comment)
        if let lifetime = constraints.lifetime {
            body.writeByte(SSHKeyConstraints.lifetimeCode)
            body.writeUInt32(lifetime)
        }
        if constraints.confirm { body.writeByte(SSHKeyConstraints.confirmCode) }
        var message = body.bytes
        defer { message.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
        let reply = try exchange(message)
        guard reply == [SSHAgentMessageNumber.success] else { throw reply == [SSHAgentMessageNumber.failure] ? .refused : .noAnswer }
    }

    private func exchange(_ body: [UInt8]) throws(SSHAgentClientError) -> [UInt8] {
        guard let descriptor = SocketIO.connect(to: socketPath) else {
            throw .cannotConnect(path: socketPath, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard SocketIO.writeAll(descriptor, SocketIO.lengthPrefixed(body)) else { throw .noAnswer }
        guard case .message(let reply) = SocketIO.readMessage(descriptor, maximumLength: sshAgentMaximumMessageLength) else { throw .noAnswer }
        return reply
    }
}
