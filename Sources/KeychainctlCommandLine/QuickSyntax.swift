// The table-driven reading under ``PasswordRequest``, the one reader of the per-credential
// command lines (`find-generic-password -s S -a A -w` and its add and delete siblings) that
// keychainctl and keychainctl-full share, without Foundation or swift-argument-parser
// (docs/design-notes.md, "keychainctl's front").

/// One option or flag of a per-credential command: the key the command reads it by, and every
/// spelling swift-argument-parser accepts for it.
package struct QuickOption: Sendable {
    package enum Value: Sendable {
        /// A flag: no value.
        case none
        /// Takes the next argument whatever it is (the parser's `.unconditional`).
        case anything
        /// Takes the next argument only when it does not start with `-` (the parser's default);
        /// otherwise the command line goes to the parser, which reports it.
        case plain
    }

    package let key: String
    package let names: [String]
    package let value: Value
    /// May be given more than once, each value kept (`-T app -T app2`).
    package let repeats: Bool

    package init(_ key: String, _ names: String..., value: Value = .anything, repeats: Bool = false) {
        self.init(key, names, value: value, repeats: repeats)
    }

    package init(_ key: String, _ names: [String], value: Value = .anything, repeats: Bool = false) {
        self.key = key
        self.names = names
        self.value = value
        self.repeats = repeats
    }
}

/// The options and flags of one command, and whether it takes keychain arguments.
package struct QuickSyntax: Sendable {
    package let options: [QuickOption]
    package let takesPositional: Bool

    package init(_ options: [QuickOption]..., takesPositional: Bool = true) {
        self.options = options.flatMap { $0 }
        self.takesPositional = takesPositional
    }
}

/// A command line read by a ``QuickSyntax``: values by key, flags given, keychain arguments.
package struct QuickArguments: Sendable {
    /// Words swift-argument-parser acts on wherever they appear, even as an option's value: a
    /// command line holding one is never read here.
    package static let parserWords: Set<String> = [
        "help", "-h", "-help", "--help", "--version", "--generate-completion-script",
        "--experimental-dump-help", "---completion",
    ]

    package private(set) var values: [String: [String]] = [:]
    package private(set) var flags: Set<String> = []
    package private(set) var positional: [String] = []

    /// Reads `arguments` (after the subcommand name) by `syntax`; nil when anything in them is
    /// not in the plainest form (every argument an option or flag of `syntax`, an option's value, or a keychain argument not starting with `-`; nothing twice unless it repeats; none of ``parserWords``).
    package init?(_ arguments: ArraySlice<String>, syntax: QuickSyntax) {
        var byName: [String: QuickOption] = [:]
        for option in syntax.options {
            for name in option.names { byName[name] = option }
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if QuickArguments.parserWords.contains(argument) { return nil }
            guard let option = byName[argument] else {
                guard syntax.takesPositional, !argument.hasPrefix("-") else { return nil }
                positional.append(argument)
                index += 1
                continue
            }
            switch option.value {
            case .none:
                guard flags.insert(option.key).inserted else { return nil }
                index += 1
            case .anything, .plain:
                let next = index + 1
                guard next < arguments.endIndex else { return nil }
                let value = arguments[next]
                if QuickArguments.parserWords.contains(value) { return nil }
                if case .plain = option.value, value.hasPrefix("-") { return nil }
                if values[option.key] != nil && !option.repeats { return nil }
                values[option.key, default: []].append(value)
                index += 2
            }
        }
    }

    /// The value of a single-value option, if given.
    package func value(_ key: String) -> String? { values[key]?.last }
    /// Every value of a repeatable option, in order.
    package func all(_ key: String) -> [String] { values[key] ?? [] }
    package func flag(_ key: String) -> Bool { flags.contains(key) }
}
