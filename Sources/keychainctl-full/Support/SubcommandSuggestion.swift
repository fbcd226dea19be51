import ArgumentParser

/// Catches a misspelled subcommand before the parser does, and names the nearest real one, as
/// the parser already does for a misspelled flag.
///
/// Left to the parser, `find-generic-pasword -a alice` reads as an unexpected argument of the
/// root command, which does not tell the user that the subcommand was the mistake.
enum SubcommandSuggestion {
    /// Every word that may come first: the subcommands and `help`.
    static var knownNames: [String] {
        Keychainctl.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// The error message for a command line whose subcommand (or `help`'s subject) does not
    /// exist, or nil when it does. Options (`--help`, `--version`) are left to the parser.
    static func problem(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = knownNames
        var word = first
        if first == "help" {
            guard arguments.count > 1, !arguments[1].hasPrefix("-") else { return nil }
            word = arguments[1]
        }
        guard !names.contains(word) else { return nil }
        let program = Console.programName
        var text = "Error: unknown subcommand '\(word)'."
        if let nearest = nearest(to: word, among: names.filter { $0 != "help" }) {
            text += " Did you mean '\(nearest)'?"
        }
        let usage = (Keychainctl.configuration.usage ?? "").split(separator: " ").dropFirst().joined(separator: " ")
        return text + "\nUsage: \(program) \(usage)\n  See '\(program) --help' for the subcommands.\n"
    }

    /// The name closest to `word`, if it is close enough to be a typo rather than another word:
    /// at most a quarter of its letters (and at least two) changed, dropped, added or swapped.
    static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { (name: $0, distance: editDistance(word, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(2, best.name.count / 4) ? best.name : nil
    }

    /// Edits turning `a` into `b`: changing, inserting or deleting a character, or swapping two
    /// neighbours (the commonest typo, which plain Levenshtein counts as two).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
