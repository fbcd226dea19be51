import ArgumentParser
import Foundation

/// `export`: writes an encrypted backup of a keychain's items.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a keychain's items to an encrypted backup file.",
        discussion: """
            Writes every exportable item (all but ...ThisDeviceOnly ones) to a backup file \
            encrypted with a passphrase, for `import` on this or another machine. An existing \
            file is not replaced (exit 208, dupFNErr) unless --force is given; either way the \
            backup appears whole or not at all. This is not macOS's certificate and key export: \
            -t, -f, -w and -p are not supported. \(PasswordArgument.warning)
            """)

    @Option(name: .customShort("o"), help: ArgumentHelp("The backup file to write.", valueName: "file"))
    var output: String

    @Option(name: [.customShort("P"), .customLong("passphrase")], parsing: .unconditional,
            help: ArgumentHelp("The passphrase protecting the backup; prompted for when not given.", valueName: "passphrase"))
    var passphrase: String?

    @Option(name: .customShort("k"), help: ArgumentHelp("The keychain to export (the same as --keychain).", valueName: "keychain"))
    var sourceKeychain: String?

    @Flag(name: .customLong("force"), help: "Replace the output file if it exists (the new backup is written beside it, then renamed over it).")
    var force = false

    @OptionGroup var location: KeychainOption

    func validate() throws {
        if sourceKeychain != nil && location.keychain != nil { throw ValidationError("Give -k or --keychain, not both.") }
        if output.isEmpty { throw ValidationError("The output file cannot be empty.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named([sourceKeychain].compactMap { $0 }))[0]
        let context = "SecKeychainExport \(target.url.path)"
        let destination = URL(fileURLWithPath: output)
        // Before the passphrase is asked for: a refusal after typing it twice wastes the user's time.
        if !force { try BackupDestination.refuseExisting(destination, context: context) }
        let file = try KeychainSession.open(target)
        let secret = try PasswordArgument.resolve(passphrase ?? PasswordArgument.readMarker, prompt: "passphrase for the backup: ",
                                                  confirmPrompt: "retype passphrase for the backup: ", context: context)
        let count = try CommandFailure.about(target) { () throws(CommandFailure) -> Int in
            try BackupDestination.write(to: destination, replacing: force, context: context) { url throws(CommandFailure) in
                try KeychainAdministration.exportBackup(file, to: url, passphrase: secret, context: context)
            }
        }
        Console.out("\(count) item\(count == 1 ? "" : "s") exported.\n")
    }
}
