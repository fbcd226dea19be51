/// One per-credential command (`find-`, `add-` or `delete-` `generic-`/`internet-password`), as a
/// value: what both keychainctl programs hand to the one executor (`PasswordExecutor`).
///
/// ``init(commandLine:)`` is the reader both programs use: it reads only the plainest spelling
/// of such a command line (every argument exactly one of the command's option or flag names,
/// an option's value, or a keychain argument not starting with `-`; no option or flag twice
/// except the repeatable ones; none of the words swift-argument-parser acts on wherever they
/// appear) and only a command line that passes the commands' checks (``problem``). Anything
/// else is not its to read: keychainctl-full then gives it to swift-argument-parser, whose
/// usage messages and help are the ones printed, and whose commands build this same value.
/// Why a reader of its own: swift-argument-parser learns a command's options by reflecting over
/// its type, a third of such a short process's instructions (BENCHMARKS.md section 4).
package struct PasswordRequest: Sendable, Equatable {
    /// What find shows: the attributes, the attributes and the password on standard error
    /// (`-g`), or the password alone (`-w`).
    package enum Show: Sendable, Equatable { case attributes, attributesAndPassword, passwordOnly }

    /// An added item's password: given on the command line, or to be read (`-w` last, `-w -`).
    package enum Password: Sendable, Equatable {
        case given(String)
        case prompt

        /// The password option's value as typed (after ``ArgumentNormalizer``): the read marker
        /// asks for a prompt.
        package init(optionValue value: String) {
            self = value == ArgumentNormalizer.readMarker ? .prompt : .given(value)
        }
    }

    package enum Action: Sendable, Equatable {
        case find(Show, json: Bool)
        /// `update` is `-U`.
        case add(password: Password?, update: Bool)
        case delete
    }

    package var action: Action
    package var item: PasswordCommandSyntax.Item
    /// The attribute options given, by their keys in ``PasswordCommandSyntax`` (values as
    /// typed, four-character codes unchecked), the port apart.
    package var attributes: [String: String]
    package var port: Int?
    /// The keychains named by `--keychain` or as arguments (never both); none: the default one.
    package var keychains: [String]
    package var accessGroup: String?
    /// `-A` and `-T`: accepted for `security`'s scripts, with no effect.
    package var allowAnyApplication: Bool
    package var trustedApplications: [String]
    /// add's `--synchronizable` (ours; `security` has none): the item is added, or `-U` looks for
    /// the one to change, with `kSecAttrSynchronizable` true.
    package var synchronizable: Bool

    package init(action: Action, item: PasswordCommandSyntax.Item, attributes: [String: String], port: Int?,
                 keychains: [String], accessGroup: String?, allowAnyApplication: Bool = false, trustedApplications: [String] = [],
                 synchronizable: Bool = false) {
        self.action = action
        self.item = item
        self.attributes = attributes
        self.port = port
        self.keychains = keychains
        self.accessGroup = accessGroup
        self.allowAnyApplication = allowAnyApplication
        self.trustedApplications = trustedApplications
        self.synchronizable = synchronizable
    }

    /// The subcommand's name, e.g. `find-generic-password`.
    package var commandName: String {
        let verb: String
        switch action {
        case .find: verb = "find"
        case .add: verb = "add"
        case .delete: verb = "delete"
        }
        return "\(verb)-\(item.name)-password"
    }

    /// The command `arguments` (subcommand name first, after ``ArgumentNormalizer``) ask for, or
    /// nil when this reader does not read them.
    package init?(commandLine arguments: [String]) {
        guard let name = arguments.first, let (verb, item) = Self.commands[name] else { return nil }
        let syntax = PasswordCommandSyntax.syntax(verb, item)
        guard let given = QuickArguments(arguments.dropFirst(), syntax: syntax) else { return nil }
        var attributes: [String: String] = [:]
        for option in item.attributeOptions where option.key != PasswordCommandSyntax.portKey {
            if let value = given.value(option.key) { attributes[option.key] = value }
        }
        var port: Int?
        if let text = given.value(PasswordCommandSyntax.portKey) {
            // Read as swift-argument-parser reads an Int.
            guard let number = Int(text) else { return nil }
            port = number
        }
        let action: Action
        switch verb {
        case .find:
            let show: Show = given.flag("passwordOnly") ? .passwordOnly : given.flag("showPassword") ? .attributesAndPassword : .attributes
            action = .find(show, json: given.flag("json"))
        case .add:
            action = .add(password: given.value("password").map(Password.init(optionValue:)), update: given.flag("update"))
        case .delete:
            action = .delete
        }
        let keychain = given.value("keychain")
        // The commands' check: both spellings of a keychain together are a usage error.
        if keychain != nil && !given.positional.isEmpty { return nil }
        self.init(action: action, item: item, attributes: attributes, port: port,
                  keychains: keychain.map { [$0] } ?? given.positional, accessGroup: given.value("accessGroup"),
                  allowAnyApplication: given.flag("allowAnyApplication"), trustedApplications: given.all("trustedApplications"),
                  synchronizable: given.flag("synchronizable"))
        if problem != nil { return nil }
    }

    /// The subcommands this reader reads, by name.
    static let commands: [String: (PasswordCommandSyntax.Verb, PasswordCommandSyntax.Item)] = {
        var table: [String: (PasswordCommandSyntax.Verb, PasswordCommandSyntax.Item)] = [:]
        for verb in [PasswordCommandSyntax.Verb.find, .add, .delete] {
            for item in [PasswordCommandSyntax.Item.generic, .internet] { table["\(verb.rawValue)-\(item.name)-password"] = (verb, item) }
        }
        return table
    }()

    /// What the commands' checks refuse in this request, in the words of the usage error their
    /// `validate()` throws (the reader declines such a request, so that swift-argument-parser
    /// reports it), or nil. `--keychain` given with keychain arguments, the one check a request
    /// cannot express, is made while reading.
    package var problem: String? {
        if let port, let message = Self.portProblem(port) { return message }
        if let message = Self.accessGroupProblem(accessGroup) { return message }
        if case .add = action, keychains.count > 1 { return Self.severalKeychains }
        if keychains.contains(where: \.isEmpty) { return Self.emptyKeychainName }
        if case .add = action, attributes["account"] == nil || attributes[item.primaryKey] == nil {
            return item.missingPrimaryAttributes
        }
        return nil
    }

    package static let bothKeychainSpellings = "Name the keychain either with --keychain or as an argument, not both."
    package static let severalKeychains = "This command takes at most one keychain."
    package static let emptyKeychainName = "A keychain name cannot be empty."

    package static func portProblem(_ port: Int) -> String? {
        (0...65535).contains(port) ? nil : "The port must be between 0 and 65535."
    }

    package static func accessGroupProblem(_ group: String?) -> String? {
        group?.isEmpty == true ? "--access-group cannot be empty." : nil
    }
}
