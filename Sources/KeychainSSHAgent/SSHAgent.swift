import Crypto
package import Foundation
package import KeychainAuthentication
import KeychainLocking
package import KeychainServices
package import KeychainStore

/// The SSH agent: answers one request at a time with the keychain's SSH keys
/// (``SSHKeychainKeys``). It signs with them in this process and never sends a private key
/// anywhere: no request of the protocol returns one.
///
/// Every failure (a message that does not parse, a key it does not hold, a locked keychain, a
/// refused confirmation) is answered with `SSH_AGENT_FAILURE`; nothing a client sends can stop it.
package final class SSHAgent: Sendable {
    /// Asks the person whether the key with this comment may sign now for `program` (as a
    /// prompt names the caller, or ``unnamedProgram``); true means yes.
    package typealias Confirmation = @Sendable (_ comment: String, _ keyType: String, _ program: String) -> Bool

    /// How prompts name a caller the agent was not told of (no caller resolver).
    package static let unnamedProgram = "A program of yours"

    /// The prompt for a key whose access control needs the user at each use (`.privateKeyUsage`
    /// with `.userPresence` or `.devicePasscode`): given the key's comment, the authenticator
    /// that asks for the keychain password during that signature for `program`. Nil: the
    /// process's own (``KeychainAuthenticators``), which in a daemon without a terminal asks
    /// nobody and fails.
    package typealias PresencePrompt = @Sendable (_ comment: String, _ program: String) -> any KeychainAuthenticator

    let keys: SSHKeychainKeys
    let confirm: Confirmation
    let presencePrompt: PresencePrompt?
    /// While locked with `ssh-add -x`: a MAC of the passphrase under a key made at that moment,
    /// so that the passphrase itself is not kept and is compared in constant time.
    private let lockState = Locked<AgentLock?>(nil)

    private struct AgentLock {
        let key: SymmetricKey
        let tag: Data
        var failedUnlocks = 0
    }

    package init(keys: SSHKeychainKeys, confirm: @escaping Confirmation, presencePrompt: PresencePrompt? = nil) {
        self.keys = keys
        self.confirm = confirm
        self.presencePrompt = presencePrompt
    }

    /// Whether the agent is locked (`ssh-add -x`).
    package var isLocked: Bool { lockState.withLock { $0 != nil } }

    /// The answer to one message body (its type byte and contents, without the length prefix).
    /// With `caller`, the keys are those its identity's access groups hold
    /// (``SSHKeychainKeys/seen(by:)``) and prompts name its program; without, the keys of the
    /// agent's own identity.
    package func respond(to body: [UInt8], caller: SSHAgentCaller? = nil) -> [UInt8] {
        let request: SSHAgentRequest
        do {
            request = try SSHAgentRequest.parse(body)
        } catch {
            return Self.failure
        }
        guard let keys = caller.map({ self.keys.seen(by: $0.identity) }) ?? self.keys else { return Self.failure }
        return respond(to: request, keys: keys, program: caller?.program ?? Self.unnamedProgram)
    }

    static let failure: [UInt8] = [SSHAgentMessageNumber.failure]
    static let success: [UInt8] = [SSHAgentMessageNumber.success]

    func respond(to request: SSHAgentRequest, keys: SSHKeychainKeys, program: String = unnamedProgram) -> [UInt8] {
        if case .unlock(let passphrase) = request { return unlock(passphrase) }
        if isLocked {
            // A locked agent lists nothing and does nothing else, as OpenSSH's does.
            if case .requestIdentities = request { return Self.identities([]) }
            return Self.failure
        }
        switch request {
        case .requestIdentities:
            guard let entries = try? keys.entries() else { return Self.failure }
            return Self.identities(entries)
        case .sign(let blob, let data, let flags):
            return sign(blob: blob, data: data, flags: flags, keys: keys, program: program)
        case .addIdentity(let privateKey, let comment, let constraints):
            guard let key = privateKey.secKey(),
                  (try? keys.add(key, comment: comment, constraints: constraints)) != nil else { return Self.failure }
            return Self.success
        case .removeIdentity(let blob):
            return (try? keys.remove(blob: blob)) == true ? Self.success : Self.failure
        case .removeAllIdentities:
            return (try? keys.removeAll()) != nil ? Self.success : Self.failure
        case .lock(let passphrase):
            let key = SymmetricKey(size: .bits256)
            let tag = Data(HMAC<SHA256>.authenticationCode(for: passphrase, using: key))
            lockState.withLock { $0 = AgentLock(key: key, tag: tag) }
            return Self.success
        case .extension(let name, _):
            // `query` (draft-miller-ssh-agent, section 3.8.1) lists the extensions served: only itself.
            guard name == "query" else { return [SSHAgentMessageNumber.extensionFailure] }
            var writer = SSHWireWriter()
            writer.writeByte(SSHAgentMessageNumber.success)
            writer.writeString("query")
            return writer.bytes
        case .unlock, .unsupported:
            return Self.failure
        }
    }

    private func sign(blob: [UInt8], data: [UInt8], flags: UInt32, keys: SSHKeychainKeys, program: String) -> [UInt8] {
        // A locked keychain fails here: its key items cannot be read.
        guard let entry = try? keys.entry(forBlob: blob) else { return Self.failure }
        if entry.confirm {
            guard confirm(entry.comment, SSHKeyEncoding.keyType(ofBlob: blob) ?? "", program) else { return Self.failure }
        }
        // A key that needs the user at each use asks here, through SecKeyCreateSignature, every
        // time: the agent holds no authentication context across signatures.
        let signature = if let presencePrompt {
            KeychainAuthenticators.withAuthenticator(presencePrompt(entry.comment, program)) {
                SSHKeyEncoding.signature(of: data, with: entry.key, flags: flags)
            }
        } else {
            SSHKeyEncoding.signature(of: data, with: entry.key, flags: flags)
        }
        guard let signature else { return Self.failure }
        var writer = SSHWireWriter()
        writer.writeByte(SSHAgentMessageNumber.signResponse)
        writer.writeString(signature)
        return writer.bytes
    }

    /// Unlocks with the passphrase given to LOCK. A wrong one waits a little longer each time
    /// (up to a second), so that guessing over the socket is slow.
    private func unlock(_ passphrase: [UInt8]) -> [UInt8] {
        let outcome: (matched: Bool, failures: Int)? = lockState.withLock { state in
            guard var lock = state else { return nil }
            if HMAC<SHA256>.isValidAuthenticationCode(lock.tag, authenticating: passphrase, using: lock.key) {
                state = nil
                return (true, 0)
            }
            lock.failedUnlocks += 1
            state = lock
            return (false, lock.failedUnlocks)
        }
        guard let outcome else { return Self.failure }
        if outcome.matched { return Self.success }
        usleep(UInt32(min(outcome.failures, 10)) * 100_000)
        return Self.failure
    }

    static func identities(_ entries: [SSHKeychainKeys.Entry]) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.writeByte(SSHAgentMessageNumber.identitiesAnswer)
        writer.writeUInt32(UInt32(entries.count))
        for entry in entries {
            writer.writeString(entry.blob)
            writer.writeString(entry.comment)
        }
        return writer.bytes
    }
}
