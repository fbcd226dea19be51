import ArgumentParser

/// `delete-generic-password`: deletes the first generic password that matches.
struct DeleteGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-generic-password",
        abstract: "Delete a generic password item.",
        discussion: """
            Deletes the first matching item, after printing its attributes on standard output; \
            "password has been deleted." follows on standard error. No match exits 44.

            Example: keychainctl delete-generic-password -a alice -s example.com
            """)

    @OptionGroup var attributes: GenericPasswordOptions
    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychains to search (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
    }

    func run() throws {
        try PasswordActions.delete(try attributes.attributes(),
                                   targets: KeychainSession.targets(location.named(keychains)),
                                   accessGroup: group.accessGroup)
    }
}
