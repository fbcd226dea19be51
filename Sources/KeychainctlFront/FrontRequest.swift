import KeychainctlCommandLine

/// A command line the front serves, read by the same hand reader (``QuickArguments``) and
/// option tables (``PasswordCommandSyntax``) as keychainctl-full's QuickParse; nil for any
/// other, which keychainctl-full then reads.
///
/// Served: `find-generic-password` and `find-internet-password` (`-w`, `-g` or neither; not
/// `--json`), `add-generic-password` and `add-internet-password` (`-U` too), and
/// `delete-generic-password` and `delete-internet-password`, on the default keychain, with the
/// password (for add) given as a value or not at all, with string attributes and a port. Handed
/// on: global options (they come before the subcommand, so the first argument is not one of these
/// names), a keychain named by `--keychain` or an argument, a password to prompt for (`-w` last,
/// or `-w -`), four-character codes (`-c`, `-C`, `-r`, `-t`, whose malformed values are
/// keychainctl-full's to report), and anything keychainctl-full's validation refuses.
struct FrontRequest: Sendable {
    /// What find shows: the password alone (`-w`), the attributes and the password on standard
    /// error (`-g`), or the attributes.
    enum Show: Sendable { case passwordOnly, attributesAndPassword, attributes }
    enum Action: Sendable { case find(Show), add(password: String?, update: Bool), delete }

    let action: Action
    let item: PasswordCommandSyntax.Item
    /// The attributes given, by their keys in ``PasswordCommandSyntax`` (strings as typed; the
    /// port as a number).
    let strings: [String: String]
    let port: Int?
    let accessGroup: String?
    /// Whether keychainctl-full would warn that the process listing shows a password.
    let passwordOnCommandLine: Bool

    init?(_ commandLine: [String]) {
        // keychainctl-full reads the line after the same normalisation (a trailing `-w`).
        let arguments = ArgumentNormalizer.normalize(commandLine)
        guard let name = arguments.first else { return nil }
        let syntax: QuickSyntax
        switch name {
        case "find-generic-password": (item, syntax) = (.generic, PasswordCommandSyntax.find(.generic))
        case "find-internet-password": (item, syntax) = (.internet, PasswordCommandSyntax.find(.internet))
        case "add-generic-password": (item, syntax) = (.generic, PasswordCommandSyntax.add(.generic))
        case "add-internet-password": (item, syntax) = (.internet, PasswordCommandSyntax.add(.internet))
        case "delete-generic-password": (item, syntax) = (.generic, PasswordCommandSyntax.delete(.generic))
        case "delete-internet-password": (item, syntax) = (.internet, PasswordCommandSyntax.delete(.internet))
        default: return nil
        }
        guard let given = QuickArguments(arguments.dropFirst(), syntax: syntax),
              given.positional.isEmpty, given.value("keychain") == nil else { return nil }
        // --access-group "" is a validation error.
        if let group = given.value("accessGroup"), group.isEmpty { return nil }
        accessGroup = given.value("accessGroup")
        if Self.codeKeys.contains(where: { given.value($0) != nil }) { return nil }

        var strings: [String: String] = [:]
        for key in Self.stringKeys(item) {
            if let value = given.value(key) { strings[key] = value }
        }
        self.strings = strings
        if let text = given.value("port") {
            // Read as swift-argument-parser reads an Int, and validated as InternetPasswordOptions does.
            guard let port = Int(text), (0...65535).contains(port) else { return nil }
            self.port = port
        } else {
            port = nil
        }

        if name.hasPrefix("find-") {
            guard !given.flag("json") else { return nil }
            action = .find(given.flag("passwordOnly") ? .passwordOnly : given.flag("showPassword") ? .attributesAndPassword : .attributes)
        } else if name.hasPrefix("delete-") {
            action = .delete
        } else {
            // add's validation: the account and the service (or server) are required.
            guard strings["account"] != nil, strings[item == .generic ? "service" : "server"] != nil else { return nil }
            let password = given.value("password")
            if password == ArgumentNormalizer.readMarker { return nil }
            action = .add(password: password, update: given.flag("update"))
        }
        passwordOnCommandLine = CommandLinePasswords.redact(arguments).foundPassword
    }

    /// The keys of the four-character code options, which the front leaves to keychainctl-full.
    static let codeKeys = ["creator", "type", "protocolCode", "authenticationType"]

    /// The keys of the options whose values are stored as given.
    static func stringKeys(_ item: PasswordCommandSyntax.Item) -> [String] {
        item.attributeOptions.map(\.key).filter { !codeKeys.contains($0) && $0 != "port" }
    }
}
