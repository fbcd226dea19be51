import ArgumentParser
import Foundation

/// `set-keychain-settings`: sets when a keychain locks itself.
struct SetKeychainSettings: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-keychain-settings",
        abstract: "Set the settings of a keychain.",
        discussion: """
            With -t the keychain locks itself after that many seconds without use; without -t it \
            never times out (as in macOS `security`, omitting -t means "no timeout"). A keychain \
            without a password cannot lock: the timeout is kept for when a password is set, and a \
            note on standard error says so, naming the command that sets one. -l (lock when the system sleeps) is \
            accepted so that scripts such as `set-keychain-settings -lut 7200` keep working, but \
            has no effect here: a note on standard error says so.
            """)

    @Flag(name: .customShort("l"), help: "Lock when the system sleeps (no effect on this platform; a note says so).")
    var lockOnSleep = false

    @Flag(name: .customShort("u"), help: "Lock after the timeout (implied by -t; accepted for compatibility).")
    var useTimeout = false

    @Option(name: .customShort("t"), help: ArgumentHelp("Timeout in seconds.", valueName: "seconds"))
    var timeout: Int?

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychain (instead of --keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try location.validate(positional: keychains, allowsSeveral: false)
        if let timeout, timeout <= 0 { throw ValidationError("The timeout must be a positive number of seconds.") }
    }

    func run() throws {
        let target = KeychainSession.targets(location.named(keychains))[0]
        let context = "SecKeychainSetSettings \(target.url.path)"
        let file = try KeychainSession.open(target)
        try KeychainAdministration.setLockTimeout(file, timeout.map(TimeInterval.init), context: context)
        if timeout != nil, try !KeychainAdministration.hasPassword(file, context: context) {
            // Saying nothing would let the user believe the keychain now locks after the timeout.
            Console.err(KeychainAdministration.cannotLockNote(target))
        }
        if lockOnSleep {
            Console.err("\(Console.programName): -l (lock on sleep) has no effect on this platform; use -t to lock after a timeout.\n")
        }
    }
}
