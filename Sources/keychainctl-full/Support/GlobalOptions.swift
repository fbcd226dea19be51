/// The options `security` takes before the command name (`security -i`, `security -q -i`).
/// They are read by hand because they come before the subcommand, where a subcommand-based
/// parser expects only the subcommand.
struct GlobalOptions: Sendable {
    var interactive = false
    var quiet = false
    var verbose = false
    var help = false
    var prompt = "keychainctl> "

    /// Reads leading option clusters (`-i`, `-qi`, `-p PROMPT`, `-pPROMPT`) until the first
    /// argument that is not one; returns the options and the rest of the command line.
    /// `-l` (run leaks on exit, in `security`) is accepted and ignored.
    static func parse(_ arguments: [String]) -> (GlobalOptions, [String]) {
        var options = GlobalOptions()
        var index = 0
        scan: while index < arguments.count {
            let argument = arguments[index]
            guard argument.count >= 2, argument.hasPrefix("-"), !argument.hasPrefix("--") else { break }
            let letters = Array(argument.dropFirst())
            guard letters.allSatisfy({ "hilpqv".contains($0) }) || letters.first == "p" else { break }
            var position = 0
            while position < letters.count {
                switch letters[position] {
                case "h": options.help = true
                case "i": options.interactive = true
                case "l": break
                case "q": options.quiet = true
                case "v": options.verbose = true
                case "p":
                    options.interactive = true
                    let attached = String(letters[(position + 1)...])
                    if !attached.isEmpty {
                        options.prompt = attached
                    } else if index + 1 < arguments.count {
                        index += 1
                        options.prompt = arguments[index]
                    }
                    index += 1
                    continue scan
                default: break scan
                }
                position += 1
            }
            index += 1
        }
        return (options, Array(arguments[index...]))
    }
}
