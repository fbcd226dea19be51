import Foundation
import Testing

/// Help, bad usage and the documented exit codes of keychainctl.
@Suite struct CLIUsageTests {
    static let subcommands = [
        "add-generic-password", "add-internet-password", "find-generic-password", "find-internet-password",
        "delete-generic-password", "delete-internet-password", "dump-keychain", "create-keychain",
        "delete-keychain", "lock-keychain", "unlock-keychain", "set-keychain-password",
        "set-keychain-settings", "show-keychain-info", "export", "import", "list-keychains", "default-keychain",
        "seal-keychain", "remove-seal", "list-access-rules", "grant-access", "revoke-access",
        "import-ssh-key", "create-ssh-key", "list-ssh-keys", "ssh-add",
    ]
    /// The subcommands that work on keychaind's policy folder rather than on a keychain.
    static let policySubcommands: Set = ["list-access-rules", "grant-access", "revoke-access"]

    @Test("With no command keychainctl prints its usage on standard output and exits 2, as security does")
    func noArguments() throws {
        let result = try CLISandbox().run([])
        #expect(result.status == 2)
        #expect(result.stdout.contains("add-generic-password"))
    }

    @Test("--help and -h print the overview, the subcommands and the exit codes, and exit 0")
    func rootHelp() throws {
        let sandbox = try CLISandbox()
        for flag in ["--help", "-h"] {
            let result = try sandbox.run([flag])
            #expect(result.status == 0, "\(flag)")
            for name in Self.subcommands { #expect(result.stdout.contains(name), "\(flag) \(name)") }
            #expect(result.stdout.contains("44  errSecItemNotFound"))
            #expect(result.stdout.contains("45  errSecDuplicateItem"))
        }
    }

    @Test("Every subcommand has --help, exiting 0", arguments: subcommands)
    func subcommandHelp(_ name: String) throws {
        let result = try CLISandbox().run([name, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE"))
        #expect(result.stdout.contains(Self.policySubcommands.contains(name) ? "--system" : "--keychain"))
    }

    @Test("The help of every subcommand stands alone: it points at no docs/ file, which an installed user does not have")
    func helpNamesNoDocsFile() throws {
        // --experimental-dump-help is what generate-manual reads: the whole help of every
        // subcommand, so the manual pages are covered too.
        let dump = try CLISandbox().run(["--experimental-dump-help"])
        try #require(dump.status == 0, "\(dump)")
        // Decoded and written again without escapes: the dump is JSON, which writes "/" as a backslash and a slash.
        let decoded = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8))
        let text = String(decoding: try JSONSerialization.data(withJSONObject: decoded, options: [.withoutEscapingSlashes]), as: UTF8.self)
        #expect(text.contains("find-generic-password"))
        let pointers = text.components(separatedBy: "docs/").dropFirst().map { String($0.prefix(40)) }
        #expect(pointers.isEmpty, "help points at docs/\(pointers)")
    }

    @Test("help <subcommand> prints that subcommand's help")
    func helpSubcommand() throws {
        let result = try CLISandbox().run(["help", "find-generic-password"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Print only the password"))
    }

    @Test("Help for commands that take passwords warns that command-line passwords show in process listings",
          arguments: ["add-generic-password", "add-internet-password", "unlock-keychain", "create-keychain",
                      "set-keychain-password", "export", "import"])
    func passwordWarning(_ name: String) throws {
        let result = try CLISandbox().run([name, "--help"])
        #expect(result.stdout.replacingOccurrences(of: "\n", with: " ").contains("process listing"))
    }

    @Test("That warning names the command's own password flag: -w only where the command takes -w",
          arguments: [("add-generic-password", "-w"), ("add-internet-password", "-w"), ("unlock-keychain", "-p"),
                      ("create-keychain", "-p"), ("seal-keychain", "-p"), ("set-keychain-password", "-o or -p"),
                      ("export", "-P"), ("import", "-P")])
    func passwordWarningNamesTheCommandsFlag(_ name: String, _ flag: String) throws {
        let help = try CLISandbox().run([name, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("give \(flag) last, or with the value -, to be prompted"), "\(help)")
        if flag != "-w" { #expect(!help.contains("give -w last"), "\(help)") }
    }

    @Test("An unknown subcommand is bad usage: exit 2 and an error on standard error")
    func unknownSubcommand() throws {
        let result = try CLISandbox().run(["frobnicate-keychain"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Error: unknown subcommand 'frobnicate-keychain'."))
        #expect(result.stdout == "")
    }

    @Test("A misspelled subcommand is named as unknown, with the nearest subcommand suggested, and exits 2",
          arguments: [(["find-generic-pasword", "-a", "alice"], "find-generic-password"),
                      (["dump-keychian"], "dump-keychain"),
                      (["lock-keychan", "-a"], "lock-keychain"),
                      (["help", "unlock-keychian"], "unlock-keychain")])
    func misspelledSubcommand(_ arguments: [String], _ suggestion: String) throws {
        let result = try CLISandbox().run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout == "")
        let word = arguments[0] == "help" ? arguments[1] : arguments[0]
        #expect(result.stderr.hasPrefix("Error: unknown subcommand '\(word)'. Did you mean '\(suggestion)'?\n"), "\(result)")
    }

    @Test("A word far from every subcommand is unknown without a suggestion, in interactive mode too")
    func unknownWithoutSuggestion() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["frobnicate"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: unknown subcommand 'frobnicate'.\n"))
        let session = try sandbox.run(["-i"], stdin: "dump-keychian\n")
        #expect(session.status == 2)
        #expect(session.stderr.contains("Did you mean 'dump-keychain'?"))
    }

    @Test("The suggestion counts a swap of two neighbouring letters as one edit")
    func editDistanceCountsSwaps() throws {
        // "keychian" is one swap from "keychain", so the suggestion must be dump-keychain even
        // with a second typo elsewhere in the word.
        let result = try CLISandbox().run(["dmp-keychian"])
        #expect(result.stderr.contains("Did you mean 'dump-keychain'?"), "\(result)")
    }

    /// The arguments each subcommand needs, so that an unknown option is its only mistake.
    static let validBase: [String: [String]] = [
        "add-generic-password": ["-a", "a", "-s", "s"], "add-internet-password": ["-a", "a", "-s", "s"],
        "create-keychain": ["/tmp/never-created.keychain-db"], "delete-keychain": ["/tmp/never-deleted.keychain-db"],
        "export": ["-o", "/tmp/never-written.backup"], "import": ["/tmp/never-read.backup"],
        "seal-keychain": ["--with", "tpm2"], "remove-seal": ["some-seal"],
        "grant-access": ["--flatpak", "org.example.A", "--access-group", "g"], "revoke-access": ["--flatpak", "org.example.A"],
        "import-ssh-key": ["/tmp/never-read.key"], "ssh-add": ["/tmp/never-read.key"],
    ]

    @Test("An unknown option is bad usage, named in the message", arguments: subcommands)
    func unknownOption(_ name: String) throws {
        let result = try CLISandbox().run([name] + (Self.validBase[name] ?? []) + ["--no-such-option"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--no-such-option"))
        #expect(result.stdout == "")
    }

    @Test("No subcommand's help leaves a dangling \"see below\" or a run of spaces inside a sentence", arguments: subcommands)
    func helpTextIsClean(_ name: String) throws {
        let help = try CLISandbox().run(["help", name]).stdout
        #expect(!help.contains("see below"))
        // Wrapped lines are indented; a run of spaces after a word inside a line is a glitch. The
        // one deliberate pair ("no-timeout  or  Keychain") separates two examples.
        for line in help.split(separator: "\n") {
            let text = line.drop { $0 == " " }.replacingOccurrences(of: "no-timeout  or  Keychain", with: "")
            let option = text.hasPrefix("-") || text.hasPrefix("<")
            #expect(option || !text.contains("   "), "\(name): \(line)")
        }
    }

    @Test("An option missing its value is bad usage")
    func missingValue() throws {
        #expect(try CLISandbox().run(["find-generic-password", "-s"]).status == 2)
    }

    @Test("An empty keychain name or access group is bad usage")
    func emptyNames() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["find-generic-password", "--keychain", ""]).status == 2)
        #expect(try sandbox.run(["find-generic-password", "--access-group", ""]).status == 2)
    }

    @Test("docs/keychainctl.md lists every exit status the help lists")
    func documentedExitCodes() throws {
        let docs = ProofSupport.packageRoot.appendingPathComponent("docs/keychainctl.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let help = try CLISandbox().run(["--help"]).stdout
        let codes = help.split(separator: "\n").compactMap { line -> Int? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let first = trimmed.split(separator: " ").first, trimmed.contains("  ") else { return nil }
            return Int(first)
        }
        #expect(codes.count >= 13)
        for code in codes { #expect(text.contains("| \(code) |"), "exit \(code) is not in docs/keychainctl.md") }
    }

    @Test("--version prints the version the README and the Getting Started article state")
    func versionAgreesWithDocumentation() throws {
        let result = try CLISandbox().run(["--version"])
        #expect(result.status == 0)
        let printed = try #require(result.stdout.split(separator: " ").last).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stdout == "keychainctl \(printed)\n")
        let readme = try String(contentsOf: ProofSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("The version is \(printed),"))
        let gettingStarted = try String(contentsOf: ProofSupport.packageRoot
            .appendingPathComponent("Sources/KeychainKit/KeychainKit.docc/GettingStarted.md"), encoding: .utf8)
        #expect(gettingStarted.contains("the version, \(printed), is what `keychainctl --version` prints"))
        // Nothing is tagged, so a `from:` requirement could not be resolved.
        #expect(!gettingStarted.contains("from: \""))
    }
}
