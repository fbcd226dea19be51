import ArgumentParser

/// `add-generic-password`: stores a password for a service and account.
struct AddGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-generic-password",
        abstract: "Add a generic password item.",
        discussion: """
            The account (-a) and service (-s) are required. Without -w the item is stored with an \
            empty password. \(PasswordArgument.warning)

            Example: keychainctl add-generic-password -a alice -s example.com -w
            """)

    @OptionGroup var attributes: GenericPasswordOptions

    @Option(name: [.customShort("w"), .customShort("p"), .customLong("password")], parsing: .unconditional,
            help: ArgumentHelp("The password (-p is the older spelling). Give -w last, or -w -, to be prompted without echo.", valueName: "password"))
    var password: String?

    @Flag(name: .customShort("U"), help: "Update the item if it already exists (otherwise an existing item is an error, exit 45).")
    var update = false

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
        if attributes.account == nil || attributes.service == nil {
            throw ValidationError("Both the account (-a) and the service (-s) are required.")
        }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        try PasswordActions.add(try attributes.attributes(), password: password, update: update,
                                target: target, accessGroup: group.accessGroup)
    }
}
