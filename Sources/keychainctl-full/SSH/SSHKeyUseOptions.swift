import ArgumentParser
import KeychainSSHAgent
import KeychainServices
import KeychainStore

/// How keychaind's agent may use a key that `create-ssh-key` or `import-ssh-key` stores: asking
/// before each signature (`--confirm`, as `ssh-add -c`) and asking for the keychain password at
/// each signature (`--user-presence`, the key's access control needing the user at each use).
struct SSHKeyUseOptions: ParsableArguments {
    @Flag(name: .customLong("confirm"), help: "Have the agent ask before each signature (as ssh-add -c).")
    var confirm = false

    @Flag(name: .customLong("user-presence"),
          help: "Have the agent ask for the keychain password at each signature (access control .userPresence).")
    var userPresence = false

    var constraints: SSHKeyConstraints {
        SSHKeyConstraints(confirm: confirm)
    }

    /// The access control a `--user-presence` key is stored with: only while the keychain is
    /// unlocked, signing only, the user asked at each use. The keychain password stands for the
    /// passcode that use asks for, so a keychain without one is refused here: its key could
    /// never sign.
    func accessControl(for file: KeychainFile, keychain target: KeychainSession.Target) throws -> SecAccessControl? {
        guard userPresence else { return nil }
        guard file.hasPassword else {
            throw CommandFailure.general("--user-presence", "the keychain has no password, so a key that asks for it could never sign.",
                                         hint: "Set one first: keychainctl set-keychain-password\(target.commandArgument)")
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [.privateKeyUsage, .userPresence], &error) else {
            throw CommandFailure.status(errSecParam, "SecAccessControlCreateWithFlags")
        }
        return access
    }
}
