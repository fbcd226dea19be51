/// Adjusts a command line before it is parsed, where `security`'s getopt rules and
/// swift-argument-parser's differ.
///
/// `security add-generic-password … -w` with `-w` last, and no value, means "prompt me for the
/// password". An option parser sees a missing value there, so a trailing password flag gets the
/// ``readMarker`` ("-") as its value. A `-w` that is itself the value of the
/// option before it (`-a -w`) is left alone, as getopt would.
package enum ArgumentNormalizer {
    /// The value that stands for "read the password instead" (keychainctl's `PasswordArgument`
    /// prompts for it); what a bare trailing password flag becomes.
    package static let readMarker = "-"

    /// The password flags of the subcommands that prompt when the flag comes last.
    package static let passwordFlags: [String: Set<String>] = [
        "add-generic-password": ["-w", "-p", "--password"],
        "add-internet-password": ["-w", "--password"],
        "unlock-keychain": ["-p", "--password"],
        "seal-keychain": ["-p", "--password"],
        "create-keychain": ["-p", "--password"],
        "set-keychain-password": ["-o", "-p", "--old-password", "--new-password"],
        "export": ["-P", "--passphrase"],
        "import": ["-P", "--passphrase"],
    ]

    /// Options that take a value in some subcommand, so that a password flag given as the value
    /// of the option before it is recognised as a value.
    package static let valueOptions: Set<String> = [
        "-a", "-c", "-C", "-d", "-D", "-G", "-j", "-l", "-p", "-P", "-r", "-s", "-t", "-w", "-T", "-o",
        "--keychain", "--access-group", "--password-fd",
        "--with", "--name", "--output", "--systemd-key", "--pcrs", "--seal", "--credential",
    ]

    /// Letters that are value options elsewhere but plain flags in these subcommands
    /// (`export -w -P`: -P follows the flag -w, it is not its value).
    package static let flagsOf: [String: Set<String>] = ["export": ["-w", "-p"]]

    package static func normalize(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, let flags = passwordFlags[command],
              let last = arguments.last, arguments.count >= 2, flags.contains(last) else { return arguments }
        let before = arguments.count >= 3 ? arguments[arguments.count - 2] : ""
        if valueOptions.contains(before) && !(flagsOf[command]?.contains(before) ?? false) {
            // `-a -w`: the flag is the account's value, not a password flag.
            return arguments
        }
        return arguments + [readMarker]
    }
}
