import ArgumentParser

/// `lock-keychain`: locks a keychain for every process of this user.
struct LockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock-keychain",
        abstract: "Lock a keychain.",
        discussion: """
            Locks the keychain for every process of this user: items protected by its password \
            (kSecAttrAccessibleWhenUnlocked and ...AfterFirstUnlock) cannot be read until it is \
            unlocked again, and reading them fails with errSecInteractionNotAllowed (exit 36). \
            A keychain without a password has nothing to lock: the command succeeds and says so             on standard error (set one with set-keychain-password).
            """)

    @Flag(name: .customShort("a"), help: "Lock all keychains (here: the default keychain).")
    var all = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if all && !location.named(keychains).isEmpty { throw ValidationError("Give -a or a keychain, not both.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let file = try KeychainSession.open(target)
        let context = "SecKeychainLock \(target.url.path)"
        if try !KeychainAdministration.hasPassword(file, context: context) {
            Console.err("\(Console.programName): \(target.url.path) has no password, so there is nothing to lock; set one with set-keychain-password.\n")
            return
        }
        try KeychainAdministration.lock(file, context: context)
    }
}
