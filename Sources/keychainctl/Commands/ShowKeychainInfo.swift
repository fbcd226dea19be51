import ArgumentParser

/// `show-keychain-info`: shows a keychain's lock settings.
struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info",
        abstract: "Show the settings for a keychain.",
        discussion: """
            Prints, on standard error as macOS `security` does, a line such as \
            Keychain "/path/login.keychain-db" no-timeout  or  Keychain "/path" timeout=300s. \
            The timeout is the one set with set-keychain-settings -t; it matters only for a \
            keychain with a password.
            """)

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let file = try KeychainSession.open(target)
        var line = "Keychain \"\(target.url.path)\""
        if let timeout = try KeychainAdministration.lockTimeout(file, context: "SecKeychainCopySettings") {
            line += " timeout=\(Int(timeout))s"
        } else {
            line += " no-timeout"
        }
        Console.err(line + "\n")
    }
}
