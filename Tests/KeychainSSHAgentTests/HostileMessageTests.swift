import Foundation
import KeychainSSHAgent
import KeychainTestSupport
import Testing
import _CryptoExtras

/// What a client can send that is not a well-formed request: each gets `SSH_AGENT_FAILURE`
/// (5), and the agent goes on serving.
@Suite struct HostileMessageTests {
    static let failure: [UInt8] = [5]
    static let requestIdentities = RawAgentConnection.framed([11])
    static let emptyIdentities: [UInt8] = [12, 0, 0, 0, 0]

    @Test func malformedBodiesAreFailuresAndTheConnectionGoesOn() throws {
        let sandbox = try AgentSandbox()
        let bodies: [[UInt8]] = [
            [13],                                   // a sign request with nothing in it
            [13, 0, 0, 0, 9, 1, 2],                 // a key blob longer than the message
            [13, 0xFF, 0xFF, 0xFF, 0xFF],           // a string length near 4 GiB
            [17, 0, 0, 0, 7] + Array("ssh-rsa".utf8) + [0, 0, 0, 1, 0x80],  // a negative mpint, then the end
            [17, 0, 0, 0, 3] + Array("dsa".utf8),   // a key type the agent does not hold
            [25, 0, 0, 0, 0],                       // a constrained add of an empty key type
            [11, 0],                                // bytes after a request that has none
            [200],                                  // an unknown message type
            [20],                                   // smartcard keys: not served
        ]
        let (replies, closed) = sandbox.exchange(bodies.map(RawAgentConnection.framed) + [Self.requestIdentities],
                                                 readReplies: bodies.count + 1)
        #expect(replies.count == bodies.count + 1)
        #expect(replies.dropLast().allSatisfy { $0 == Self.failure }, "\(replies)")
        #expect(replies.last == Self.emptyIdentities)
        #expect(!closed, "the agent closed a connection whose framing was intact")
        let unknownExtension = sandbox.exchange([RawAgentConnection.framed([27, 0, 0, 0, 5] + Array("nope!".utf8))], readReplies: 1)
        #expect(unknownExtension.replies == [[28]])
    }

    /// A length of zero or over 256 KiB: a failure, then the connection closes; new ones are served.
    @Test(arguments: [UInt32(0), UInt32(256 * 1024 + 1), UInt32.max])
    func badLengthsCloseTheConnection(_ length: UInt32) throws {
        let sandbox = try AgentSandbox()
        let header = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        let (replies, closed) = sandbox.exchange([header, [11, 11, 11, 11]], readReplies: 1)
        #expect(replies == [Self.failure])
        #expect(closed)
        #expect(sandbox.exchange([Self.requestIdentities], readReplies: 1).replies == [Self.emptyIdentities])
    }

    /// A message cut off by the client hanging up, and random bodies of every type: the agent answers
    /// each body it gets and stays up.
    @Test func truncatedAndRandomMessagesDoNotStopTheAgent() throws {
        let sandbox = try AgentSandbox()
        // A length of 40, three bytes of body, and the client hangs up.
        let cut = RawAgentConnection(path: sandbox.server.socketPath)
        cut.write([0, 0, 0, 40, 13, 0, 0])
        cut.close()
        var random = SeededRandom(seed: 0x55_48_41_47)
        let connection = RawAgentConnection(path: sandbox.server.socketPath)
        defer { connection.close() }
        for round in 0..<600 {
            // Types 17 and 25 (adding keys) and 22 (lock) change state; the rest only read it.
            let type = [UInt8(11), 13, 17, 18, 19, 23, 25, 27, UInt8.random(in: 0...255, using: &random)][round % 9]
            guard type != 22 else { continue }
            let body = [type] + (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            connection.send(message: body)
            let reply = connection.readMessage()
            #expect(reply != nil, "no answer to \(body)")
            if reply == nil { return }
        }
        #expect(sandbox.exchange([Self.requestIdentities], readReplies: 1).replies.first?.first == 12)
    }

    /// The RSA hash flags through the raw protocol: SHA-512 (4), SHA-256 (2), and SHA-1 only
    /// without a flag, each checked with swift-crypto's verifier against ssh-keygen's public key.
    @Test func rsaSignatureFlagsChooseTheHash() throws {
        let sandbox = try AgentSandbox()
        let file = try sandbox.makeKey(.rsa2048)
        #expect(try sandbox.sshAdd([file.path]).status == 0)
        let line = try sandbox.publicKey(of: file)
        let blob = try #require(Data(base64Encoded: String(line.split(separator: " ")[1])))
        var reader = SSHWireReader(blob)
        _ = try reader.readString()
        let exponent = try reader.readPositiveMPInt(), modulus = try reader.readPositiveMPInt()
        let publicKey = try _RSA.Signing.PublicKey(n: modulus, e: exponent)
        let data = Array("session data to sign".utf8)
        for (flags, name) in [(UInt32(4), "rsa-sha2-512"), (2, "rsa-sha2-256"), (0, "ssh-rsa")] {
            var request = SSHWireWriter()
            request.writeByte(13)
            request.writeString(Array(blob))
            request.writeString(data)
            request.writeUInt32(flags)
            let reply = try #require(sandbox.exchange([RawAgentConnection.framed(request.bytes)], readReplies: 1).replies.first)
            #expect(reply.first == 14)
            var answer = SSHWireReader(reply.dropFirst())
            var signatureBlob = SSHWireReader(try answer.readString())
            #expect(try signatureBlob.readText() == name)
            let signature = _RSA.Signing.RSASignature(rawRepresentation: try signatureBlob.readString())
            let valid: Bool
            switch flags {
            case 4: valid = publicKey.isValidSignature(signature, for: SHA512.hash(data: data), padding: .insecurePKCS1v1_5)
            case 2: valid = publicKey.isValidSignature(signature, for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
            default: valid = publicKey.isValidSignature(signature, for: Insecure.SHA1.hash(data: data), padding: .insecurePKCS1v1_5)
            }
            #expect(valid, "\(name)")
        }
    }

    /// OpenSSH's `query` extension lists what is served.
    @Test func queryExtension() throws {
        let sandbox = try AgentSandbox()
        var request = SSHWireWriter()
        request.writeByte(27)
        request.writeString("query")
        let reply = try #require(sandbox.exchange([RawAgentConnection.framed(request.bytes)], readReplies: 1).replies.first)
        var reader = SSHWireReader(reply)
        #expect(try reader.readByte() == 6)
        #expect(try reader.readText() == "query")
    }
}
