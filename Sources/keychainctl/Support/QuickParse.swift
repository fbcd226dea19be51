import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A hand-written reader for the command lines that scripts, git and docker run once per
/// credential (`find-generic-password -s S -a A -w` and its add and delete siblings).
///
/// swift-argument-parser learns a command's options by reflecting over its type, and the Swift
/// runtime's first-use conformance and metadata lookups that this triggers cost about a third
/// of such a process's instructions (BENCHMARKS.md, keychainctl start-up). This reader knows
/// the options from a table instead. It accepts only the plainest spelling of a command line,
/// where both readers cannot disagree: every argument is exactly one of the command's option
/// or flag names, an option's value, or a keychain argument that does not start with `-`;
/// no option or flag twice (except the repeatable ones), nothing the parser treats specially
/// (help, version, completion requests). It fills the same command type the parser would, runs
/// the same `validate()` and `run()`, and anything else (including every command line that
/// would fail validation, so that the parser's usage message is the one printed) it hands to
/// the parser. `QuickParseEquivalenceTests` runs a table of command lines both ways and
/// compares output, errors, exit status and the keychain.
enum QuickParse {
    /// Chooses the reader, for the equivalence tests and for ruling this reader out when chasing
    /// a problem: `full` sends every command line to swift-argument-parser; `quick-only` makes a
    /// command line this reader declines exit with ``declinedStatus`` instead of being parsed.
    /// Unset (or anything else): this reader when it can, else the parser.
    static let modeVariable = "KEYCHAINCTL_PARSER"
    static let declinedStatus: Int32 = 125

    enum Mode { case automatic, fullParser, quickOnly }

    static var mode: Mode {
        guard let value = getenv(modeVariable) else { return .automatic }
        switch String(cString: value) {
        case "full": return .fullParser
        case "quick-only": return .quickOnly
        default: return .automatic
        }
    }

    /// The subcommands this reader handles, by name. A new subcommand needs nothing here: what
    /// is not listed goes to the parser. (A switch, not a table of the six types, so that only
    /// the one asked for has its generic metadata made.)
    static func commandType(named name: String) -> (any QuicklyParsedCommand.Type)? {
        switch name {
        case "find-generic-password": FindPassword<GenericPasswordOptions>.self
        case "find-internet-password": FindPassword<InternetPasswordOptions>.self
        case "add-generic-password": AddPassword<GenericPasswordOptions>.self
        case "add-internet-password": AddPassword<InternetPasswordOptions>.self
        case "delete-generic-password": DeletePassword<GenericPasswordOptions>.self
        case "delete-internet-password": DeletePassword<InternetPasswordOptions>.self
        default: nil
        }
    }

    /// Words the parser acts on wherever they appear, even as an option's value: a command
    /// line holding one goes to the parser.
    static let parserWords: Set<String> = [
        "help", "-h", "-help", "--help", "--version", "--generate-completion-script",
        "--experimental-dump-help", "---completion",
    ]

    /// The command `arguments` (subcommand name first) asks for, filled in, or nil when the
    /// parser must read this command line.
    static func command(for arguments: [String]) -> (any QuicklyParsedCommand)? {
        guard mode != .fullParser,
              let name = arguments.first, let type = commandType(named: name), type.quickName == name,
              let given = QuickArguments(arguments.dropFirst(), syntax: type.quickSyntax) else { return nil }
        do {
            var command = try type.init(quick: given)
            try command.validate()
            return command
        } catch {
            // The parser reports it, in its words.
            return nil
        }
    }
}

/// One option or flag of a quickly parsed command: the key the command reads it by, and every
/// spelling the parser accepts for it.
struct QuickOption: Sendable {
    enum Value: Sendable {
        /// A flag: no value.
        case none
        /// Takes the next argument whatever it is (the parser's `.unconditional`).
        case anything
        /// Takes the next argument only when it does not start with `-` (the parser's default);
        /// otherwise the command line goes to the parser, which reports it.
        case plain
    }

    let key: String
    let names: [String]
    let value: Value
    /// May be given more than once, each value kept (`-T app -T app2`).
    let repeats: Bool

    init(_ key: String, _ names: String..., value: Value = .anything, repeats: Bool = false) {
        self.init(key, names, value: value, repeats: repeats)
    }

    init(_ key: String, _ names: [String], value: Value = .anything, repeats: Bool = false) {
        self.key = key
        self.names = names
        self.value = value
        self.repeats = repeats
    }
}

/// The options and flags of one command, and whether it takes keychain arguments.
struct QuickSyntax: Sendable {
    let options: [QuickOption]
    let takesPositional: Bool

    init(_ options: [QuickOption]..., takesPositional: Bool = true) {
        self.options = options.flatMap { $0 }
        self.takesPositional = takesPositional
    }
}

/// A command line read by ``QuickParse``: values by key, flags given, keychain arguments.
struct QuickArguments: Sendable {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Reads `arguments` (after the subcommand name) by `syntax`; nil when anything in them is
    /// not in the plainest form (see ``QuickParse``).
    init?(_ arguments: ArraySlice<String>, syntax: QuickSyntax) {
        var byName: [String: QuickOption] = [:]
        for option in syntax.options {
            for name in option.names { byName[name] = option }
        }
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if QuickParse.parserWords.contains(argument) { return nil }
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
                if QuickParse.parserWords.contains(value) { return nil }
                if case .plain = option.value, value.hasPrefix("-") { return nil }
                if values[option.key] != nil && !option.repeats { return nil }
                values[option.key, default: []].append(value)
                index += 2
            }
        }
    }

    /// The value of a single-value option, if given.
    func value(_ key: String) -> String? { values[key]?.last }
    /// Every value of a repeatable option, in order.
    func all(_ key: String) -> [String] { values[key] ?? [] }
    func flag(_ key: String) -> Bool { flags.contains(key) }
}

/// The reason ``QuicklyParsedCommand/init(quick:)`` gives up: a value the parser would turn
/// down or read differently (a port that is not a number), left to it to report.
struct QuickParseDeclined: Error {}

/// A subcommand ``QuickParse`` can fill in without swift-argument-parser.
protocol QuicklyParsedCommand: ParsableCommand {
    /// The subcommand's name (the same as its configuration's `commandName`).
    static var quickName: String { get }
    static var quickSyntax: QuickSyntax { get }
    /// The command with every property set from `given`, and each option group's `validate()`
    /// run as the parser runs it; throws when the parser should read the command line instead.
    init(quick given: QuickArguments) throws
}

/// An option group of a quickly parsed command (the attribute flags, `--keychain`).
protocol QuicklyParsedGroup: ParsableArguments {
    static var quickOptions: [QuickOption] { get }
    /// The group with every property set from `given`, validated as the parser validates it.
    init(quick given: QuickArguments) throws
}
