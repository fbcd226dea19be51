import KeychainctlCommandLine
import ArgumentParser

/// `default-keychain`: shows the default keychain.
struct DefaultKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default-keychain",
        abstract: "Display the default keychain.",
        discussion: """
            Prints the default keychain's path, quoted, as macOS `security` does: \
            $SWIFT_KEYCHAIN_PATH when it is set, else ${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db. \
            Setting it (-s) is not supported: set SWIFT_KEYCHAIN_PATH instead.
            """)

    @Option(name: .customShort("d"), help: ArgumentHelp("The preference domain; only \"user\" exists here.", valueName: "domain"))
    var domain: String?

    @Flag(name: .customShort("s"), help: "Set the default keychain (not supported; exits 252).")
    var set = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain for -s.", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try Domain.validate(domain)
        if !set && !keychains.isEmpty { throw ValidationError("A keychain can only be given with -s.") }
    }

    func run() throws {
        if set {
            throw CommandFailure.unsupported("SecKeychainSetDefault", "the default keychain cannot be set here.",
                                             hint: "Point SWIFT_KEYCHAIN_PATH at the keychain to use.")
        }
        let target = KeychainSession.targets(location.named([]))[0]
        Console.out("    " + SecurityFormat.buffer(Array(target.url.path.utf8)) + "\n")
    }
}
