import ArgumentParser
import KeychainSSHAgent
import KeychainServices

/// `list-ssh-keys`: the keychain's SSH keys, as `ssh-add -l` (or `-L`) lists an agent's.
struct ListSSHKeys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-ssh-keys",
        abstract: "List the keychain's SSH keys.",
        discussion: """
            Prints one line per SSH key of the keychain (the keys keychaind's agent offers): size, \
            fingerprint, comment and kind, as ssh-add -l; with -L the public key lines, as ssh-add \
            -L. No key exits 44 (errSecItemNotFound). Keys whose lifetime (ssh-add -t) is over \
            are deleted on the way, as the agent deletes them.
            """)

    @Flag(name: .customShort("L"), help: "Print the public key lines rather than fingerprints.")
    var publicKeys = false

    @OptionGroup var location: KeychainOption

    func run() throws {
        let target = KeychainSession.targets(location.named([]))[0]
        _ = try KeychainSession.openForItems(target, accessGroup: nil)
        let entries: [SSHKeychainKeys.Entry]
        do {
            entries = try SSHKeychainKeys().entries()
        } catch {
            throw CommandFailure.status(error.status, "SecItemCopyMatching").about(target)
        }
        guard !entries.isEmpty else {
            throw CommandFailure.status(errSecItemNotFound, "list-ssh-keys",
                                        hint: "The keychain has no SSH keys; add one with import-ssh-key, create-ssh-key, or ssh-add to keychaind's agent.")
        }
        for entry in entries {
            let line = publicKeys ? SSHPublicKeyText.authorizedKeysLine(blob: entry.blob, comment: entry.comment)
                                  : SSHPublicKeyText.listingLine(blob: entry.blob, comment: entry.comment)
            Console.out(line + "\n")
        }
    }
}
