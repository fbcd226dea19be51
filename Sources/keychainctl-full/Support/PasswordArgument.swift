import KeychainctlCommandLine

/// A password as the command line gives it: a value after the flag, or "-" (also what a bare
/// trailing `-w` becomes, see ``ArgumentNormalizer``) to read it safely instead.
enum PasswordArgument {
    static let readMarker = ArgumentNormalizer.readMarker

    /// The password bytes: the value itself, or one read from the terminal or standard input.
    static func resolve(_ value: String, prompt: String, confirmPrompt: String?, context: String) throws(CommandFailure) -> [UInt8] {
        if value == readMarker {
            return try PasswordInput.read(prompt: prompt, confirmPrompt: confirmPrompt, context: context)
        }
        return Array(value.utf8)
    }

    /// The help sentence of a command whose password option is `flag`: the command's own flag,
    /// since `-w` is add-…-password's alone (unlock-keychain and the others take -p or -P).
    static func warning(flag: String) -> String {
        "A password typed on the command line can be seen by other users in the process listing (ps); give \(flag) last, or with the value -, to be prompted without echo (or to read one line from standard input when it is not a terminal)."
    }
}
