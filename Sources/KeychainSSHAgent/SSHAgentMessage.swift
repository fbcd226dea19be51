/// The message numbers and flags of the SSH agent protocol (draft-miller-ssh-agent, and
/// OpenSSH's authfd.h, which uses the same numbers).
package enum SSHAgentMessageNumber {
    package static let failure: UInt8 = 5
    package static let success: UInt8 = 6
    package static let requestIdentities: UInt8 = 11
    package static let identitiesAnswer: UInt8 = 12
    package static let signRequest: UInt8 = 13
    package static let signResponse: UInt8 = 14
    package static let addIdentity: UInt8 = 17
    package static let removeIdentity: UInt8 = 18
    package static let removeAllIdentities: UInt8 = 19
    package static let lock: UInt8 = 22
    package static let unlock: UInt8 = 23
    package static let addIdentityConstrained: UInt8 = 25
    package static let `extension`: UInt8 = 27
    package static let extensionFailure: UInt8 = 28
}

/// The flags of a sign request that choose the hash of an RSA signature.
package enum SSHSignatureFlags {
    package static let rsaSHA256: UInt32 = 2
    package static let rsaSHA512: UInt32 = 4
}

/// The largest message the agent reads. OpenSSH's agent allows the same (256 KiB): a longer
/// length prefix ends the connection rather than have the agent buffer what a client claims.
package let sshAgentMaximumMessageLength = 256 * 1024

/// How a key added to the agent is to be used.
package struct SSHKeyConstraints: Equatable, Sendable {
    /// Ask the person before each signature.
    package var confirm = false
    /// Seconds after the addition when the key is deleted.
    package var lifetime: UInt32?

    /// The constraint bytes of ADD_ID_CONSTRAINED (draft-miller-ssh-agent section 4.2.6).
    package static let lifetimeCode: UInt8 = 1
    package static let confirmCode: UInt8 = 2

    package init(confirm: Bool = false, lifetime: UInt32? = nil) {
        self.confirm = confirm
        self.lifetime = lifetime
    }
}

/// One request from a client, read from a message's body (its type byte and what follows).
package enum SSHAgentRequest: Equatable, Sendable {
    case requestIdentities
    case sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32)
    case addIdentity(SSHPrivateKey, comment: String, constraints: SSHKeyConstraints)
    case removeIdentity(keyBlob: [UInt8])
    case removeAllIdentities
    case lock(passphrase: [UInt8])
    case unlock(passphrase: [UInt8])
    case `extension`(name: String, contents: [UInt8])
    /// A message type this agent does not serve (smartcard keys, SSH protocol 1's, unknown ones).
    case unsupported(UInt8)

    /// Reads a message body. A body that does not parse is an error, which the agent answers
    /// with a failure; the connection goes on.
    package static func parse(_ body: [UInt8]) throws(SSHWireError) -> SSHAgentRequest {
        var reader = SSHWireReader(body)
        let type = try reader.readByte()
        let request: SSHAgentRequest
        switch type {
        case SSHAgentMessageNumber.requestIdentities:
            request = .requestIdentities
        case SSHAgentMessageNumber.signRequest:
            request = .sign(keyBlob: try reader.readString(), data: try reader.readString(), flags: try reader.readUInt32())
        case SSHAgentMessageNumber.addIdentity, SSHAgentMessageNumber.addIdentityConstrained:
            let key = try SSHPrivateKey.read(from: &reader)
            let comment = try reader.readText()
            var constraints = SSHKeyConstraints()
            if type == SSHAgentMessageNumber.addIdentityConstrained {
                constraints = try readConstraints(&reader)
            }
            request = .addIdentity(key, comment: comment, constraints: constraints)
        case SSHAgentMessageNumber.removeIdentity:
            request = .removeIdentity(keyBlob: try reader.readString())
        case SSHAgentMessageNumber.removeAllIdentities:
            request = .removeAllIdentities
        case SSHAgentMessageNumber.lock:
            request = .lock(passphrase: try reader.readString())
        case SSHAgentMessageNumber.unlock:
            request = .unlock(passphrase: try reader.readString())
        case SSHAgentMessageNumber.extension:
            request = .extension(name: try reader.readText(), contents: reader.readRest())
        default:
            return .unsupported(type)
        }
        guard reader.isAtEnd else { throw .malformed("bytes after the message") }
        return request
    }

    /// The constraints of an ADD_ID_CONSTRAINED: lifetime (1) and confirm (2). Any other one
    /// (OpenSSH's maximum signature count, extensions such as destination restrictions) is
    /// refused, as the draft asks of a constraint an agent does not know: a key must never be
    /// added with less protection than its owner asked for.
    private static func readConstraints(_ reader: inout SSHWireReader) throws(SSHWireError) -> SSHKeyConstraints {
        var constraints = SSHKeyConstraints()
        while !reader.isAtEnd {
            switch try reader.readByte() {
            case SSHKeyConstraints.lifetimeCode: constraints.lifetime = try reader.readUInt32()
            case SSHKeyConstraints.confirmCode: constraints.confirm = true
            default: throw .malformed("a constraint this agent does not know")
            }
        }
        return constraints
    }
}
