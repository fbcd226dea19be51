import KeychainctlCommandLine
import ArgumentParser

/// `list-keychains`: shows the keychain search list.
struct ListKeychains: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-keychains",
        abstract: "Display the keychain search list.",
        discussion: """
            Prints the keychains item commands search when none is named, one quoted path per \
            line, as macOS `security` does. Here that is one keychain: the default keychain. \
            Keychains made with create-keychain are not added to it (item commands use one only \
            when it is named); they are named on standard error, after the list. Changing the \
            list (-s) is not supported: point SWIFT_KEYCHAIN_PATH at another keychain instead.
            """)

    @Option(name: .customShort("d"), help: ArgumentHelp("The preference domain; only \"user\" exists here.", valueName: "domain"))
    var domain: String?

    @Flag(name: .customShort("s"), help: "Set the search list (not supported; exits 252).")
    var set = false

    @OptionGroup var location: KeychainOption

    @Argument(help: ArgumentHelp("The keychains for -s.", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        try Domain.validate(domain)
        if !set && !keychains.isEmpty { throw ValidationError("Keychains can only be given with -s.") }
    }

    func run() throws {
        if set {
            throw CommandFailure.unsupported("SecKeychainSetSearchList", "the search list cannot be changed here: it always holds the default keychain.",
                                             hint: "Point SWIFT_KEYCHAIN_PATH at the keychain to use.")
        }
        let target = KeychainSession.targets(location.named([]))[0]
        Console.out("    " + SecurityFormat.buffer(Array(target.url.path.utf8)) + "\n")
        // The others, where a newcomer who just made one looks for it; on standard error, so that
        // a script reading the list sees what `security` would print.
        let searched = target.url.standardizedFileURL.path
        let others = KeychainSession.allExisting().map(\.url.standardizedFileURL.path).filter { $0 != searched }
        if !others.isEmpty {
            Console.err("\(Console.programName): not in the search list, used only when named: "
                        + others.map { SecurityFormat.buffer(Array($0.utf8)) }.joined(separator: ", ") + "\n")
        }
    }
}

/// The `-d` preference domains of `security`. This platform has one keychain list per user, so
/// only "user" (or a prefix of it, as `security` accepts) is valid; the other domains are refused
/// rather than shown empty, so that a script relying on them notices.
enum Domain {
    static func validate(_ domain: String?) throws {
        guard let domain else { return }
        // `security` accepts any prefix of the domain name ("u" for "user").
        guard !domain.isEmpty, "user".hasPrefix(domain) else {
            throw ValidationError("Invalid domain: \(domain). Only the user domain exists here.")
        }
    }
}
