import KeychainServices

/// What the helper does when the login keychain is the system keeper's (`pam_keychain.so
/// keeper=…`, docs/pam.md "With the system keeper"): the keeper holds the file, so the helper
/// only hands it the passwords over its socket, naming the user. The keeper does this for root
/// (the module runs the helper as root for it) or for the user's own process, never for another.
struct ServedLoginKeychain {
    let socketPath: String
    let user: UInt32

    func unlock(password: [UInt8], create: Bool) throws(HelperExit) -> String {
        let call = KeeperKeychainCall.unlock(user: user, password: text(password), create: create)
        switch try send(call) {
        case .adopted, .released, .forgotten, .locked: throw HelperExit(.failed, "the keeper at \(socketPath) gave an answer to another call")
        case .created: return "created the login keychain of user \(user) in the keeper with the login password, unlocked"
        case .hasNoPassword: throw HelperExit(.nothingToDo, "the login keychain of user \(user) in the keeper has no password, so it is never locked; left as it is")
        case .unlocked, .passwordChanged: return "unlocked the login keychain of user \(user) in the keeper"
        }
    }

    func changePassword(old: [UInt8], new: [UInt8]) throws(HelperExit) -> String {
        switch try send(.changePassword(user: user, old: text(old), new: text(new))) {
        case .hasNoPassword: throw HelperExit(.nothingToDo, "the login keychain of user \(user) in the keeper has no password; it is left without one")
        case .adopted, .released, .forgotten, .locked: throw HelperExit(.failed, "the keeper at \(socketPath) gave an answer to another call")
        case .created, .unlocked, .passwordChanged: return "changed the password of user \(user)'s login keychain in the keeper to the new login password"
        }
    }

    private func send(_ call: KeeperKeychainCall) throws(HelperExit) -> KeeperKeychainCall.Outcome {
        let (status, reply) = call.send(to: socketPath)
        switch status {
        case errSecSuccess:
            guard let outcome = reply?.outcome else { throw HelperExit(.failed, "the keeper at \(socketPath) gave an answer this helper does not know") }
            return outcome
        case errSecAuthFailed:
            throw HelperExit(.wrongPassword, "the login password does not open user \(user)'s login keychain in the keeper (its password differs); it is unchanged")
        case errSecNoSuchKeychain:
            throw HelperExit(.nothingToDo, "user \(user) has no login keychain in the keeper; nothing to do")
        case errSecNotAvailable:
            throw HelperExit(.failed, "no keeper answers at \(socketPath) (is keychaind --system running?); the keychain is left as it was")
        case errSecMissingEntitlement:
            throw HelperExit(.failed, "the keeper at \(socketPath) refused: only root, or the user itself, may hand over user \(user)'s password")
        default:
            throw HelperExit(.failed, "the keeper at \(socketPath) answered status \(status); the keychain is left as it was")
        }
    }

    /// The keeper takes passwords as text; ``SecretInput`` has already checked they are UTF-8.
    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
