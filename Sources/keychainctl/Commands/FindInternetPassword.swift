import ArgumentParser

/// `find-internet-password`: shows the first internet password that matches.
struct FindInternetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-internet-password",
        abstract: "Find an internet password item.",
        discussion: """
            Prints the first matching item's attributes on standard output, in the format of \
            macOS `security`. With -g the password follows on standard error; with -w only the \
            password is printed, on standard output. No match exits 44 (errSecItemNotFound).

            Example: keychainctl find-internet-password -s example.com -r htps -w
            """)

    @OptionGroup var attributes: InternetPasswordOptions

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
