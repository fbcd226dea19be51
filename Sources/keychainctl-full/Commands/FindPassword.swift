import ArgumentParser
import KeychainctlCommandLine

/// `find-generic-password` and `find-internet-password`: shows the first password item that
/// matches.
struct FindPassword<Item: PasswordItemClass>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "find-\(Item.name)-password",
            abstract: "Find \(Item.itemNoun).",
            discussion: Item.findDiscussion)
    }

    @OptionGroup var attributes: Item

    @Flag(name: .customShort("g"), help: "Also print the password, on standard error.")
    var showPassword = false

    @Flag(name: .customShort("w"), help: "Print only the password, on standard output.")
    var passwordOnly = false

    @Flag(name: .customLong("json"), help: "Print the item as one JSON object (sorted keys); with -w or -g it has the password.")
    var json = false

    @OptionGroup var location: KeychainOption
    @OptionGroup var group: AccessGroupOption

    @Argument(help: ArgumentHelp("The keychains to search (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: true)
    }

    func run() throws {
        let show: PasswordRequest.Show = passwordOnly ? .passwordOnly : showPassword ? .attributesAndPassword : .attributes
        try PasswordCommand.run(PasswordRequest(action: .find(show, json: json), item: Item.syntaxItem, attributes: attributes.given,
                                                port: attributes.givenPort, keychains: location.named(keychains),
                                                accessGroup: group.accessGroup))
    }
}
