import ArgumentParser
import Foundation
import KeychainServices

/// `import`: adds the items of a backup made by `export`.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the items of a backup file into a keychain.",
        discussion: """
            Reads a backup written by `keychainctl export` and adds its items, printing how many \
            were imported. A wrong passphrase exits 51 (errSecAuthFailed). \(PasswordArgument.warning)
            """)

    /// A backup has its own passphrase, chosen at `export`; people try the keychain password.
    static let wrongPassphraseHint = "The backup's passphrase was not accepted: it is the passphrase given to export when the backup was written, not a keychain password."

    @Argument(help: ArgumentHelp("The backup file to read.", valueName: "file"))
    var input: String

    @Option(name: [.customShort("P"), .customLong("passphrase")], parsing: .unconditional,
            help: ArgumentHelp("The backup's passphrase; prompted for when not given.", valueName: "passphrase"))
    var passphrase: String?

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to import into (the same as --keychain).", valueName: "keychain"))
    var targetKeychain: String?

    @OptionGroup var location: KeychainOption

    func validate() throws {
        if targetKeychain != nil && location.keychain != nil { throw ValidationError("Give -k or --keychain, not both.") }
        if input.isEmpty { throw ValidationError("The backup file cannot be empty.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([targetKeychain].compactMap { $0 }))[0]
        let context = "SecKeychainImport \(target.url.path)"
        let file = try KeychainSession.open(target)
        let secret = try PasswordArgument.resolve(passphrase ?? PasswordArgument.readMarker, prompt: "passphrase for the backup: ",
                                                  confirmPrompt: nil, context: context)
        let count: Int
        do throws(CommandFailure) {
            count = try KeychainAdministration.importBackup(file, from: URL(fileURLWithPath: input), passphrase: secret, context: context)
        } catch {
            throw error.replacingHint(for: errSecAuthFailed, with: Self.wrongPassphraseHint).about(target)
        }
        Console.out("\(count) item\(count == 1 ? "" : "s") imported.\n")
    }
}
