import ArgumentParser
import KeychainctlCommandLine
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
