import ArgumentParser
import Foundation
import KeychainServices
import KeychainStore

/// `remove-seal`: removes a seal made by `seal-keychain`.
struct RemoveSeal: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-seal",
        abstract: "Remove a seal of a keychain's unlock key.",
        discussion: """
            Removes the seal's record from the keychain (and, for systemd-creds, the credential \
            file seal-keychain wrote), so unlock-keychain --sealed no longer uses it. A copy of \
            the sealed key made elsewhere still holds the current unlock key: to revoke it, change \
            the keychain password (set-keychain-password), which makes every seal stale. A \
            damaged seal can be removed too. An unknown name exits 44 (errSecItemNotFound).
            """)

    @Argument(help: ArgumentHelp("The seal's name, as show-keychain-info lists it.", valueName: "name"))
    var name: String

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let context = "SecKeychainRemoveSeal \(target.url.path)"
        let file = try KeychainSession.open(target)
        // The credential file to delete afterwards, if the record still reads.
        let credentialFile = (try? file.seals())?.first { $0.record.name == name }?.record.details[SystemdCredsSeal.fileDetail]
        do {
            try file.removeSeal(named: name)
        } catch {
            throw CommandFailure.engine(error, context, hint: "`\(Console.programName) show-keychain-info\(target.commandArgument)` lists the seals.")
        }
        if let credentialFile {
            try? FileManager.default.removeItem(atPath: credentialFile)
        }
    }
}
