/// Finds the passwords written on a command line, to hide them from `-v` and to warn that the
/// process listing shows them.
///
/// It reads the line the way the option parser will (after ``ArgumentNormalizer``): the value
/// after a password flag of the subcommand is a password unless it is the read marker `-`; the
/// value after any other option that takes one is skipped, so `-a -w` is an account named
/// `-w`, as getopt has it. Attached forms (`-wsecret`, `--password=secret`) count too.
package enum CommandLinePasswords {
    /// What stands in for a password in echoed command lines.
    package static let mask = "<password>"

    /// The warning for a password given as an argument of the process.
    package static let warning = "warning: a password on the command line can be seen by other users of this machine (ps); "
        + "give the flag last without a value to be prompted for it\n"

    /// `arguments` with every password value replaced by ``mask``, and whether there was one.
    package static func redact(_ arguments: [String]) -> (arguments: [String], foundPassword: Bool) {
        let (redacted, passwords) = scan(arguments)
        return (redacted, !passwords.isEmpty)
    }

    /// `arguments` with every password value replaced by ``mask``, and the passwords found.
    package static func scan(_ arguments: [String]) -> (redacted: [String], passwords: [String]) {
        guard let command = arguments.first, let flags = ArgumentNormalizer.passwordFlags[command] else {
            return (arguments, [])
        }
        var result = arguments
        var passwords: [String] = []
        var index = 1
        while index < result.count {
            let argument = result[index]
            if argument == "--" { break }
            if flags.contains(argument) {
                if index + 1 < result.count, result[index + 1] != ArgumentNormalizer.readMarker {
                    passwords.append(result[index + 1])
                    result[index + 1] = mask
                }
                index += 2
                continue
            }
            if ArgumentNormalizer.valueOptions.contains(argument) {
                index += 2
                continue
            }
            if let flag = attachedPasswordFlag(argument, flags: flags) {
                passwords.append(String(argument.dropFirst(flag.count)))
                result[index] = flag + mask
            }
            index += 1
        }
        return (result, passwords)
    }

    /// The flag part of `--password=value` or `-wvalue` when it is a password flag with a value
    /// other than the read marker.
    private static func attachedPasswordFlag(_ argument: String, flags: Set<String>) -> String? {
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            let flag = String(argument[..<equals])
            let value = argument[argument.index(after: equals)...]
            return flags.contains(flag) && value != ArgumentNormalizer.readMarker[...] ? flag + "=" : nil
        }
        if argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 {
            let flag = String(argument.prefix(2))
            return flags.contains(flag) && argument.dropFirst(2) != ArgumentNormalizer.readMarker[...] ? flag : nil
        }
        return nil
    }
}
