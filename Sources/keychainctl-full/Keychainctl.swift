import ArgumentParser
import KeychainctlCommandLine

/// The root command: a keychain administration tool with the subcommands and flag letters of
/// macOS `security`, working on the keychain the SecItem API of this package uses.
struct Keychainctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychainctl",
        abstract: "Manage keychains and the passwords in them, in the words of macOS's `security`.",
        usage: "keychainctl [-i] [-q] [-v] [-p prompt] <subcommand> [options ...]",
        discussion: """
            Global options (before the subcommand): -i reads commands from standard input, one \
            per line, as `security -i` does; -p PROMPT sets its prompt (and implies -i); -q \
            stops it reporting failed commands; -v echoes each command to standard error, with \
            passwords shown as <password>; -h shows this help.

            The keychain is $SWIFT_KEYCHAIN_PATH, else \
            ${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db, created on first use; \
            --keychain PATH (or a keychain argument) chooses another. keychainctl sees the items \
            of every access group, as `security` does; --access-group narrows it to one.

            Exit status (stable; a failed keychain call exits with the low byte of its OSStatus, \
            as `security` does):
            \(exitCodeTable)

            `keychainctl help SUBCOMMAND` shows what one subcommand takes and prints.
            """,
        version: "keychainctl \(PackageVersion.current)",
        subcommands: [
            AddPassword<GenericPasswordOptions>.self, AddPassword<InternetPasswordOptions>.self,
            FindPassword<GenericPasswordOptions>.self, FindPassword<InternetPasswordOptions>.self,
            DeletePassword<GenericPasswordOptions>.self, DeletePassword<InternetPasswordOptions>.self,
            DumpKeychain.self,
            CreateKeychain.self, DeleteKeychain.self,
            LockKeychain.self, UnlockKeychain.self,
            SealKeychain.self, RemoveSeal.self,
            SetKeychainPassword.self, SetKeychainSettings.self, ShowKeychainInfo.self,
            Export.self, Import.self,
            ListKeychains.self, DefaultKeychain.self,
            CreateKeypair.self, ExportKey.self, ImportKey.self,
            ImportSSHKey.self, CreateSSHKey.self, ListSSHKeys.self, SSHAdd.self,
            FindCertificate.self, FindIdentity.self, DeleteCertificate.self, DeleteIdentity.self,
            Sync.self,
            ListAccessRules.self, GrantAccess.self, RevokeAccess.self,
            MoveKeychainToKeeper.self, MoveKeychainFromKeeper.self,
        ])

    static var exitCodeTable: String {
        ExitStatus.documented.map { code, meaning in
            "  " + String(repeating: " ", count: max(0, 3 - String(code).count)) + "\(code)  \(meaning)"
        }.joined(separator: "\n")
    }
}
