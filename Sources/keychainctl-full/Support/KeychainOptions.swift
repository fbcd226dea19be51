import ArgumentParser
import KeychainctlCommandLine

/// `--keychain PATH`, shared by every subcommand.
struct KeychainOption: ParsableArguments {
    @Option(name: .customLong("keychain"),
            help: ArgumentHelp("The keychain file to use. Default: $SWIFT_KEYCHAIN_PATH, else ${XDG_DATA_HOME:-~/.local/share}/keychains/login.keychain-db (created on first use).",
                               valueName: "path"))
    var keychain: String?

    /// The keychains named by `--keychain` or by the positional arguments `security` takes
    /// (never both); empty means the default keychain.
    func named(_ positional: [String]) -> [String] {
        if let keychain { return [keychain] }
        return positional
    }

    /// The check every subcommand runs in `validate()`.
    func validate(positional: [String], allowsSeveral: Bool) throws {
        if keychain != nil && !positional.isEmpty {
            throw ValidationError(PasswordRequest.bothKeychainSpellings)
        }
        if !allowsSeveral && positional.count > 1 {
            throw ValidationError(PasswordRequest.severalKeychains)
        }
        if (positional + [keychain].compactMap { $0 }).contains(where: \.isEmpty) {
            throw ValidationError(PasswordRequest.emptyKeychainName)
        }
    }
}

/// `--access-group`, for the item subcommands.
struct AccessGroupOption: ParsableArguments {
    @Option(name: .customLong("access-group"),
            help: ArgumentHelp("Only see and write items of this access group. Default: every group (adds go to swift-keychain.shared).",
                               valueName: "group"))
    var accessGroup: String?

    func validate() throws {
        if let problem = PasswordRequest.accessGroupProblem(accessGroup) { throw ValidationError(problem) }
    }
}
