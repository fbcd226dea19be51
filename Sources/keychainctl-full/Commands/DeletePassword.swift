import ArgumentParser
import KeychainctlCommandLine

/// `delete-generic-password` and `delete-internet-password`: deletes the first password item
/// that matches.
struct DeletePassword<Item: PasswordItemClass>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "delete-\(Item.name)-password",
            abstract: "Delete \(Item.itemNoun).",
            discussion: """
                Deletes the first matching item, after printing its attributes on standard output; \
                "password has been deleted." follows on standard error. No match exits 44.

                Example: \(Item.deleteExample)
                """)
    }

    @OptionGroup var attributes: Item
    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychains to search (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
    }

    func run() throws {
        try PasswordCommand.run(PasswordRequest(action: .delete, item: Item.syntaxItem, attributes: attributes.given,
                                                port: attributes.givenPort, keychains: location.named(keychains),
                                                accessGroup: group.accessGroup))
    }
}
