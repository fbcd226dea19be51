import ArgumentParser
import KeychainctlCommandLine

/// `add-generic-password` and `add-internet-password`: stores a password for an account and a
/// service or server.
struct AddPassword<Item: PasswordItemClass>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "add-\(Item.name)-password",
            abstract: "Add \(Item.itemNoun).",
            discussion: Item.addDiscussion)
    }

    @OptionGroup var attributes: Item

    @Option(name: Item.passwordNames, parsing: .unconditional,
            help: ArgumentHelp(Item.passwordHelp, valueName: "password"))
    var password: String?

    @Flag(name: .customShort("U"), help: "Update the item if it already exists (otherwise an existing item is an error, exit 45).")
    var update = false

    @Flag(name: .customLong("synchronizable"),
          help: "Make the item synchronizable (kSecAttrSynchronizable): `keychainctl sync` carries it to the other devices of the sync group (see `keychainctl sync --help`). With -U, the synchronizable item of that key is the one updated. macOS `security` has no such option.")
    var synchronizable = false

    @Flag(name: .customShort("A"), help: "Accepted for compatibility; no effect. Any process of this user can read the keychain's items here (there are no per-application access lists).")
    var allowAnyApplication = false

    @Option(name: .customShort("T"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Accepted for compatibility (may repeat); no effect, as for -A.", valueName: "app-path"))
    var trustedApplications: [String] = []

    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychain to add to (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if !attributes.hasPrimaryAttributes {
            throw ValidationError(Item.syntaxItem.missingPrimaryAttributes)
        }
    }

    func run() throws {
        let action = PasswordRequest.Action.add(password: password.map(PasswordRequest.Password.init(optionValue:)), update: update)
        try PasswordCommand.run(PasswordRequest(action: action, item: Item.syntaxItem, attributes: attributes.given, port: attributes.givenPort,
                                                keychains: location.named(keychains), accessGroup: group.accessGroup,
                                                allowAnyApplication: allowAnyApplication, trustedApplications: trustedApplications,
                                                synchronizable: synchronizable))
    }
}
