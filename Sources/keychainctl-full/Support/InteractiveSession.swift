/// `keychainctl -i`: reads commands from standard input, one per line, and runs each, as
/// `security -i` does. go-keyring drives `security` this way to keep passwords out of the
/// process listing: it writes `add-generic-password -U -s svc -a acct -w pass` to the pipe.
///
/// The prompt is shown (on standard error) only when standard input is a terminal. A failed
/// command is reported as "<command>: returned <status>" unless -q was given. The exit status is
/// that of the last command; `exit` or `quit` end the session.
struct InteractiveSession {
    let options: GlobalOptions

    func run() -> Int32 {
        let showPrompt = Console.inputIsTerminal
        var last = ExitStatus.success
        while true {
            if showPrompt { Console.err(options.prompt) }
            guard let line = Console.readLine() else { break }
            let words = LineSplitter.split(String(decoding: line, as: UTF8.self))
            guard let name = words.first else {
                last = ExitStatus.success
                continue
            }
            if name == "exit" || name == "quit" { break }
            let outcome = CommandRunner.execute(words, verbose: options.verbose)
            last = outcome.exitCode
            if outcome.exitCode != ExitStatus.success && !options.quiet {
                Console.err("\(name): returned \(outcome.reported)\n")
            }
        }
        return last
    }
}

/// Splits an interactive line into words the way `security` does: spaces separate words,
/// single or double quotes group them, and a backslash takes the next character literally
/// (inside quotes too). A closing quote ends the word.
enum LineSplitter {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                inWord = true
                continue
            }
            if let open = quote {
                if character == open {
                    words.append(current)
                    current = ""
                    quote = nil
                    inWord = false
                } else {
                    current.append(character)
                }
                continue
            }
            if character == " " || character == "\t" {
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
                continue
            }
            if !inWord && (character == "\"" || character == "'") {
                quote = character
                continue
            }
            current.append(character)
            inWord = true
        }
        if inWord || quote != nil { words.append(current) }
        return words
    }
}
