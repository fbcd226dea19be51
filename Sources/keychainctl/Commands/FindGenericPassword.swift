import ArgumentParser

/// `find-generic-password`: shows the first generic password that matches.
struct FindGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-generic-password",
        abstract: "Find a generic password item.",
        discussion: """
            Prints the first matching item's attributes on standard output, in the format of \
            macOS `security`. With -g the password follows on standard error ("password: …"); \
            with -w only the password is printed, on standard output (as hex when it has \
            unprintable bytes). No match exits 44 (errSecItemNotFound). With several keychains, \
            they are searched in order.

            Example: keychainctl find-generic-password -a alice -s example.com -w
            """)

    @OptionGroup var attributes: GenericPasswordOptions

    @Flag(name: .customShort("g"), help: "Also print the password, on standard error.")
    var showPassword = false

    @Flag(name: .customShort("w"), help: "Print only the password, on standard output.")
    var passwordOnly = false

    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychains to search (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
    }

    func run() throws {
        let show: PasswordActions.Show = passwordOnly ? .passwordOnly : showPassword ? .attributesAndPassword : .attributes
        try PasswordActions.find(try attributes.attributes(), show: show,
                                 targets: KeychainSession.targets(location.named(keychains)),
                                 accessGroup: group.accessGroup)
    }
}
