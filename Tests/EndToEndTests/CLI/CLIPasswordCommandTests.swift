import Foundation
import KeychainStore
import KeychainTestSupport
import KeychainctlCommandLine
import Testing

/// The per-credential commands (find, add and delete of generic and internet passwords) have one
/// reader (`PasswordRequest`, in KeychainctlCommandLine) and one executor (`PasswordExecutor`, in
/// KeychainctlPasswords), which the installed `keychainctl` (a small front, Sources/keychainctl)
/// and `keychainctl-full` both call; a command line the reader does not read goes to
/// swift-argument-parser in keychainctl-full, and one the front does not serve is handed to
/// keychainctl-full (docs/design-notes.md, "keychainctl's front"). These tests run each command
/// line of a table through the front and through keychainctl-full directly, and each one the
/// reader reads also through swift-argument-parser (spelled so that the reader declines it), on
/// identical copies of one keychain, and require the same exit status, output, errors and
/// resulting keychain; they check which command lines the reader reads, and which the front
/// serves itself (by running a copy of the front that has no keychainctl-full beside it).
@Suite struct CLIPasswordCommandTests {
    /// One command line, whether the reader reads it, and whether the front serves it itself.
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        let read: Bool
        let served: Bool
        var stdin: String = ""
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // Served: find (-w, -g or neither), add (-U too) and delete, on the default keychain;
        // every option and flag, long and short names.
        Case(arguments: ["find-generic-password", "-s", "web"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-g"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "-g"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "-g"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "binary", "-g"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-l", "Web login", "--access-group", "swift-keychain.shared"], read: true, served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-g"], read: true, served: true),
        Case(arguments: ["find-internet-password", "-a", "bob"], read: true, served: true),
        Case(arguments: ["delete-generic-password", "-s", "web", "-a", "alice"], read: true, served: true),
        Case(arguments: ["delete-generic-password", "-s", "binary"], read: true, served: true),
        Case(arguments: ["delete-generic-password"], read: true, served: true),
        Case(arguments: ["delete-internet-password", "-s", "example.com"], read: true, served: true),
        Case(arguments: ["delete-internet-password", "-s", "example.com", "-a", "bob", "-P", "443", "-p", "/x", "-d", "dom"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "--service", "web", "--account", "alice", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-a", "alice", "-s", "web", "-l", "not the label", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-l", "Web login", "-j", "note", "-D", "kind", "-G", "gen", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "binary", "-w"], read: true, served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", "swift-keychain.shared", "-w"], read: true, served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-a", "bob", "-w"], read: true, served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "443", "-p", "/x", "-d", "dom", "-w"], read: true, served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "+443", "-w"], read: true, served: true),
        Case(arguments: ["find-internet-password", "--server", "example.com", "--port", "+443", "-g"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "carol", "-w", "pw1"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "dave", "-p", "-starts-with-dash", "-A", "-T", "/bin/a", "-T", "/bin/b"],
             read: true, served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "frank"], read: true, served: true),
        Case(arguments: ["add-generic-password", "--service", "new", "--account", "jack", "--password", "pw", "-l", "L", "-j", "c",
                         "-D", "k", "-G", "g"], read: true, served: true),
        Case(arguments: ["add-generic-password", "--service", "new", "--account", "jack", "--password", "pw", "-U",
                         "--access-group", "other.group"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-a", "-w", "-s", "new", "-w", "pw"], read: true, served: true),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-P", "8443", "-p", "/p", "-d", "d", "-w", "pw"],
             read: true, served: true),
        Case(arguments: ["add-internet-password", "--server", "example.org", "--account", "kim", "--password", "pw",
                         "--access-group", "swift-keychain.shared"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice", "-w", "pw3"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice", "-w", "pw3", "-l", "L", "-j", "c"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "new", "-a", "lee", "-w", "pw"], read: true, served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-w", "pw4"], read: true, served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-P", "443", "-p", "/x", "-d", "dom",
                         "-l", "L", "-w", "pw5"], read: true, served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.net", "-a", "bob", "-w", "pw6"], read: true, served: true),
        Case(arguments: ["add-generic-password", "-s", "web", "-a", "alice", "-w", "synced", "--synchronizable"], read: true, served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "--synchronizable", "-w", "pw7"],
             read: true, served: true),
        // Read, and handed on: engine errors (every message and status is keychainctl-full's).
        Case(arguments: ["find-generic-password", "-s", "nothing-here", "-w"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-a", "-w", "-s", "web"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", "other.group", "-w"], read: true, served: false),
        Case(arguments: ["add-generic-password", "-s", "web", "-a", "alice", "-w", "pw2"], read: true, served: false),
        Case(arguments: ["delete-generic-password", "-s", "nothing-here"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "nothing-here", "-g"], read: true, served: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "--access-group", "other.group"], read: true, served: false),
        // Read, and handed on: what the front does not serve (--json, named keychains, codes, prompts).
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "--json"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--json"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "--json"], read: true, served: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "KEYCHAIN"], read: true, served: false),
        Case(arguments: ["delete-internet-password", "-s", "example.com", "-r", "htps"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-c", "abcd", "-C", "wxyz", "-w"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-c", "toolong", "-w"], read: true, served: false),
        Case(arguments: ["find-generic-password", "--label", "Web login", "--comment", "note", "--kind", "kind",
                         "--generic", "gen", "--creator", "abcd", "--type", "wxyz", "-g"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "KEYCHAIN", "-w"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "KEYCHAIN"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "KEYCHAIN", "KEYCHAIN"], read: true, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "missing.keychain"], read: true, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-r", "htps", "-w"], read: true, served: false),
        Case(arguments: ["find-internet-password", "--server", "example.com", "--account", "bob", "--security-domain", "dom",
                         "--path", "/x", "--protocol", "htps", "--authentication-type", "dflt", "--label", "l",
                         "--kind", "k", "--comment", "c", "--creator", "abcd", "--type", "wxyz", "--json"], read: true, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-r", "htps", "-P", "443", "-p", "/x", "-d", "dom", "-t", "dflt"],
             read: true, served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "erin", "-w"], read: true, served: false, stdin: "typed\n"),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "erin", "-w", "-"], read: true, served: false, stdin: "typed\n"),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "gina", "-w", "x", "KEYCHAIN"], read: true, served: false),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-r", "htps", "-w", "pw"], read: true, served: false),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-r", "htps", "-P", "8443", "-w", "pw"],
             read: true, served: false),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-r", "htps", "-w", "pw"], read: true, served: false),
        Case(arguments: ["add-internet-password", "--server", "example.org", "--account", "kim", "--password", "pw",
                         "--keychain", "KEYCHAIN"], read: true, served: false),
        // Not read (swift-argument-parser's: help, usage errors, unusual spellings), so not served.
        Case(arguments: ["delete-generic-password", "-s", "web", "-w"], read: false, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "70000", "-w"], read: false, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "http", "-w"], read: false, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "http"], read: false, served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "70000"], read: false, served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-w", "x"], read: false, served: false),
        Case(arguments: ["add-generic-password", "-s", "new"], read: false, served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "ivan", "-w", "x", "KEYCHAIN", "KEYCHAIN"], read: false, served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "ivan", "-U", "-U", "-w", "x"], read: false, served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "x", "--password-fd", "0"], read: false, served: false, stdin: "pw\n"),
        Case(arguments: ["find-generic-password", "--help"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-h"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-a", "--help"], read: false, served: false),
        Case(arguments: ["find-generic-password", "help"], read: false, served: false),
        Case(arguments: ["find-generic-password", "--version"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-x"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-sweb", "-w"], read: false, served: false),
        Case(arguments: ["find-generic-password", "--service=web", "-w"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-gw"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "-w"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-s", "other"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "KEYCHAIN", "KEYCHAIN"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "-w"], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", ""], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", ""], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "--access-group", ""], read: false, served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--", "KEYCHAIN"], read: false, served: false),
        Case(arguments: ["find-generic-pasword", "-s", "web"], read: false, served: false),
        Case(arguments: ["-v", "find-generic-password", "-s", "web", "-w"], read: false, served: false),
        Case(arguments: ["-q", "find-generic-password", "-s", "web", "-w"], read: false, served: false),
        Case(arguments: ["-h"], read: false, served: false),
        Case(arguments: ["-i"], read: false, served: false, stdin: "find-generic-password -s web -w\n"),
        Case(arguments: ["no-such-command"], read: false, served: false),
        Case(arguments: ["dump-keychain"], read: false, served: false),
        Case(arguments: ["--version"], read: false, served: false),
        Case(arguments: [], read: false, served: false),
    ]

    /// A sandbox holding the items every case starts from (one with every generic attribute,
    /// an internet password, a binary password), and a named keychain beside it.
    static func seeded() throws -> (CLISandbox, String) {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "web", password: "alice-pw",
                               extra: ["-l", "Web login", "-j", "note", "-D", "kind", "-G", "gen", "-c", "abcd", "-C", "wxyz"])
        let internet = try sandbox.run(["add-internet-password", "-s", "example.com", "-a", "bob", "-r", "htps", "-P", "443",
                                        "-p", "/x", "-d", "dom", "-w", "bob-pw"])
        try #require(internet.status == 0, "\(internet)")
        let named = sandbox.path("work.keychain-db")
        let created = try sandbox.run(["create-keychain", "-p", "", named])
        try #require(created.status == 0, "\(created)")
        try sandbox.addGeneric(account: "alice", service: "web", password: "named-pw", extra: [named])
        let binary = try sandbox.run(["add-generic-password", "-s", "binary", "-a", "x", "-w", "caf\u{e9}\u{1}"])
        try #require(binary.status == 0, "\(binary)")
        return (sandbox, named)
    }

    /// Copies `template`'s keychains and device key into a new sandbox.
    static func copy(of template: CLISandbox) throws -> CLISandbox {
        let copy = try CLISandbox()
        let manager = FileManager.default
        for item in try manager.contentsOfDirectory(atPath: template.home.path) {
            try manager.copyItem(at: template.home.appendingPathComponent(item), to: copy.home.appendingPathComponent(item))
        }
        return copy
    }

    /// What a run leaves that two ways of running it must agree on, with the sandbox's own
    /// folder written as HOME so that two sandboxes compare. The keychains' dumps compare
    /// without their dates: an add or update in the two copies happens a moment apart.
    static func observed(_ result: CLIResult, in sandbox: CLISandbox, named: String) throws -> [String] {
        let home = sandbox.home.path
        let dump = try sandbox.run(["dump-keychain", "-d"])
        let dumpNamed = try sandbox.run(["dump-keychain", "-d", named])
        let undated = [dump.stdout, dumpNamed.stdout].map { text in
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.contains("<timedate>=") ? String(line.prefix { $0 != "=" } ) : String(line) }
                .joined(separator: "\n")
        }
        return (["exit \(result.status)", result.stdout, result.stderr] + undated)
            .map { $0.replacingOccurrences(of: home, with: "HOME") }
    }

    /// keychainctl-full under a link named `keychainctl` (as the front's exec names it: its
    /// messages say the name it was called by).
    static func fullProgram(in sandbox: CLISandbox) throws -> URL {
        let link = sandbox.home.appendingPathComponent("full/keychainctl")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try CLIBinary.fullURL())
        return link
    }

    /// Runs `testCase` with each of the two spellings (arguments and program) `spellings` gives
    /// in a sandbox, each on its own copy of the seeded keychains, and what each run left.
    static func runCopies(_ testCase: Case, _ spellings: (CLISandbox) throws -> [(arguments: [String], program: URL?)]) throws -> [[String]] {
        let (template, templateNamed) = try seeded()
        let relative = String(templateNamed.dropFirst(template.home.path.count))
        var seen: [[String]] = []
        for index in 0..<2 {
            let sandbox = try copy(of: template)
            let named = sandbox.home.path + relative
            let spelling = try spellings(sandbox)[index]
            let arguments = spelling.arguments.map { $0 == "KEYCHAIN" ? named : $0 }
            let result = try sandbox.run(arguments, stdin: testCase.stdin, executable: spelling.program)
            seen.append(try observed(result, in: sandbox, named: named))
        }
        return seen
    }

    @Test("Each command line gives the same status, output, errors and keychain through the front and through keychainctl-full",
          arguments: cases)
    func frontAndFullAgree(_ testCase: Case) throws {
        let seen = try Self.runCopies(testCase) { sandbox in
            [(testCase.arguments, nil), (testCase.arguments, try Self.fullProgram(in: sandbox))]
        }
        #expect(seen[0] == seen[1], "\(testCase)")
    }

    /// `arguments` spelled so that the reader declines them and swift-argument-parser reads
    /// them the same: `--` before the keychain arguments (or at the end), and a password to
    /// prompt for written as `-w -` (a trailing `-w` would no longer be last).
    static func parserSpelling(_ arguments: [String]) -> [String] {
        var spelled = ArgumentNormalizer.normalize(arguments)
        var keychains: [String] = []
        while let last = spelled.last, last == "KEYCHAIN" || last == "missing.keychain", spelled.dropLast().last != "--keychain" {
            keychains.insert(spelled.removeLast(), at: 0)
        }
        return spelled + ["--"] + keychains
    }

    @Test("Each command line the reader reads gives the same status, output, errors and keychain through swift-argument-parser",
          arguments: cases.filter(\.read))
    func readerAndParserAgree(_ testCase: Case) throws {
        let spelled = Self.parserSpelling(testCase.arguments)
        #expect(PasswordRequest(commandLine: ArgumentNormalizer.normalize(spelled)) == nil, "\(spelled)")
        let seen = try Self.runCopies(testCase) { sandbox in
            let full = try Self.fullProgram(in: sandbox)
            return [(testCase.arguments, full), (spelled, full)]
        }
        #expect(seen[0] == seen[1], "\(testCase)")
    }

    @Test("The reader reads exactly the command lines the table says it reads", arguments: cases)
    func readerChoice(_ testCase: Case) {
        let request = PasswordRequest(commandLine: ArgumentNormalizer.normalize(testCase.arguments))
        #expect((request != nil) == testCase.read, "\(testCase)")
        #expect(!testCase.served || testCase.read, "\(testCase): the front serves only what the reader reads")
    }

    /// One option as a table or a declaration gives it: every spelling, and whether it takes a
    /// value and may repeat.
    struct OptionShape: Hashable, CustomStringConvertible {
        let names: [String]
        let takesValue: Bool
        let repeats: Bool
        var description: String { names.joined(separator: "/") + (takesValue ? " VALUE" : "") + (repeats ? "..." : "") }
    }

    @Test("The reader's option table is the one keychainctl-full's swift-argument-parser commands declare (--experimental-dump-help)")
    func readerTableMatchesDeclarations() throws {
        let sandbox = try CLISandbox()
        let dump = try sandbox.run(["--experimental-dump-help"], executable: try CLIBinary.fullURL())
        try #require(dump.status == 0, "\(dump)")
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdoutData) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let subcommands = try #require(command["subcommands"] as? [[String: Any]])
        var checked = 0
        for verb in [PasswordCommandSyntax.Verb.find, .add, .delete] {
            for item in [PasswordCommandSyntax.Item.generic, .internet] {
                let name = "\(verb.rawValue)-\(item.name)-password"
                let declared = try #require(subcommands.first { $0["commandName"] as? String == name }, "\(name) is not a subcommand")
                var declaredOptions: Set<OptionShape> = []
                var declaresKeychainArguments = false
                for argument in declared["arguments"] as? [[String: Any]] ?? [] {
                    let kind = argument["kind"] as? String
                    if kind == "positional" {
                        declaresKeychainArguments = true
                        continue
                    }
                    let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { spelling -> String? in
                        guard let text = spelling["name"] as? String else { return nil }
                        return (spelling["kind"] as? String == "long" ? "--" : "-") + text
                    }.sorted()
                    // swift-argument-parser's own flags (help, version), which the reader leaves to it.
                    if names.allSatisfy(QuickArguments.parserWords.contains) { continue }
                    declaredOptions.insert(OptionShape(names: names, takesValue: kind == "option",
                                                       repeats: argument["isRepeating"] as? Bool ?? false))
                }
                let syntax = PasswordCommandSyntax.syntax(verb, item)
                let table = Set(syntax.options.map { option in
                    var takesValue = true
                    if case QuickOption.Value.none = option.value { takesValue = false }
                    return OptionShape(names: option.names.sorted(), takesValue: takesValue, repeats: option.repeats)
                })
                #expect(table == declaredOptions, "\(name): only in the table \(table.subtracting(declaredOptions)), only declared \(declaredOptions.subtracting(table))")
                #expect(syntax.takesPositional == declaresKeychainArguments, "\(name)")
                checked += 1
            }
        }
        #expect(checked == 6)
    }

    /// A copy of the front alone (a copy, not a link: the front looks for keychainctl-full
    /// beside the file /proc/self/exe names), so that every hand-off fails visibly. Copied by
    /// cp(1): a file this process held open for writing could be inherited by a process another
    /// test starts at that moment, and running the copy would then fail with ETXTBSY.
    static func loneFront(in sandbox: CLISandbox) throws -> URL {
        let lone = sandbox.home.appendingPathComponent("lone/keychainctl")
        try FileManager.default.createDirectory(at: lone.deletingLastPathComponent(), withIntermediateDirectories: true)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [try CLIBinary.url().path, lone.path]
        try copy.run()
        try #require(copy.waitForExit().terminationStatus == 0, "cp of the front failed")
        return lone
    }

    @Test("The front serves exactly the command lines the table says it serves", arguments: cases)
    func frontChoice(_ testCase: Case) throws {
        let (sandbox, named) = try Self.seeded()
        let arguments = testCase.arguments.map { $0 == "KEYCHAIN" ? named : $0 }
        let result = try sandbox.run(arguments, stdin: testCase.stdin, executable: try Self.loneFront(in: sandbox))
        if testCase.served {
            #expect(result.status == 0, "\(testCase): \(result)")
            #expect(!result.stderr.contains("keychainctl-full"), "\(testCase): \(result)")
        } else {
            #expect(result.status == 1, "\(testCase): \(result)")
            #expect(result.stderr.contains("cannot run") && result.stderr.contains("/lone/keychainctl-full"), "\(testCase): \(result)")
        }
    }

    /// A seeded sandbox, the front alone in a folder, and a lookup it answers by itself there
    /// (checked): what the hand-on tests change one thing of, to see the front hand it on.
    static func loneFrontServingALookup() throws -> (CLISandbox, URL, [String]) {
        let (sandbox, _) = try seeded()
        let lone = try loneFront(in: sandbox)
        let arguments = ["find-generic-password", "-s", "web", "-a", "alice", "-w"]
        #expect(try sandbox.run(arguments, executable: lone).stdout == "alice-pw\n")
        return (sandbox, lone, arguments)
    }

    @Test("Without HOME the front hands on: the home folder is keychainctl-full's to find (the installed front is fully static)")
    func noHomeHandsOn() throws {
        let (sandbox, lone, arguments) = try Self.loneFrontServingALookup()
        let result = try sandbox.run(arguments, environment: ["HOME": ""], executable: lone)
        #expect(result.status == 1 && result.stderr.contains("cannot run"), "\(result)")
        // Through the front and keychainctl-full, the answer is unchanged (XDG_DATA_HOME and
        // XDG_CONFIG_HOME still name the keychain and its device key).
        #expect(try sandbox.run(arguments, environment: ["HOME": ""]).stdout == "alice-pw\n")
    }

    @Test("No default keychain yet: the front hands on, and keychainctl-full creates it")
    func missingDefaultKeychain() throws {
        let sandbox = try CLISandbox()
        let arguments = ["add-generic-password", "-s", "first", "-a", "me", "-w", "pw"]
        let handed = try sandbox.run(arguments, executable: try Self.loneFront(in: sandbox))
        #expect(handed.status == 1 && handed.stderr.contains("cannot run"), "\(handed)")
        let added = try sandbox.run(arguments)
        #expect(added.status == 0, "\(added)")
        #expect(try sandbox.run(["find-generic-password", "-s", "first", "-w"]).stdout == "pw\n")
    }

    @Test("A locked default keychain: the front hands on, and keychainctl-full's error and status are the ones seen")
    func lockedKeychain() throws {
        let (sandbox, _) = try Self.seeded()
        let passwordSet = try sandbox.run(["set-keychain-password", "-p", "pw"], stdin: "\n")
        try #require(passwordSet.status == 0, "\(passwordSet)")
        try #require(try sandbox.run(["lock-keychain"]).status == 0)
        let arguments = ["find-generic-password", "-s", "web", "-a", "alice", "-w"]
        let handed = try sandbox.run(arguments, executable: try Self.loneFront(in: sandbox))
        #expect(handed.status == 1 && handed.stderr.contains("cannot run"), "\(handed)")
        let viaFront = try sandbox.run(arguments)
        let viaFull = try sandbox.run(arguments, executable: try Self.fullProgram(in: sandbox))
        #expect(viaFront.status != 0)
        #expect([viaFront.status.description, viaFront.stdout, viaFront.stderr] == [viaFull.status.description, viaFull.stdout, viaFull.stderr])
    }

    @Test("An item that asks for the user's presence: the front hands on, and keychainctl-full's answer is the one seen")
    func presenceItem() throws {
        let (sandbox, _) = try Self.seeded()
        // Written the way SecItemAdd writes an item with kSecAttrAccessControl (.userPresence),
        // in a keychain with a password (a presence item needs one).
        let deviceKey = try DeviceKey.load(from: sandbox.home.appendingPathComponent("config/swift-keychain/device-key"), create: false)
        let file = try KeychainFile.open(at: sandbox.defaultKeychain, deviceKey: deviceKey, create: false)
        try file.setPassword("pw", currentPassword: nil)
        _ = try file.add(.genericPassword, attributes: [AttributeName.service: .string("guarded"), AttributeName.account: .string("me")],
                         secret: Data("1234".utf8), identity: .unconfigured,
                         accessControl: ItemAccessControl(encoded: Data("presence".utf8), requiresAuthentication: true))
        let lone = try Self.loneFront(in: sandbox)
        // The keychain is unlocked for other processes (the kernel keyring shares it): an
        // ordinary item is still served, so what is handed on below is for the presence item.
        let ordinary = try sandbox.run(["find-generic-password", "-s", "web", "-a", "alice", "-w"], executable: lone)
        try #require(ordinary.status == 0 && ordinary.stdout == "alice-pw\n", "\(ordinary)")
        let arguments = ["find-generic-password", "-s", "guarded", "-a", "me", "-w"]
        let handed = try sandbox.run(arguments, executable: lone)
        #expect(handed.status == 1 && handed.stderr.contains("cannot run"), "\(handed)")
        let viaFront = try sandbox.run(arguments)
        let viaFull = try sandbox.run(arguments, executable: try Self.fullProgram(in: sandbox))
        #expect(viaFront.stdout != "1234\n")
        #expect([viaFront.status.description, viaFront.stdout, viaFront.stderr] == [viaFull.status.description, viaFull.stdout, viaFull.stderr])
    }

    @Test("add -w PASSWORD served by the front warns as keychainctl-full does, once")
    func commandLinePasswordWarning() throws {
        let (sandbox, _) = try Self.seeded()
        let result = try sandbox.run(["add-generic-password", "-s", "warned", "-a", "me", "-w", "pw"],
                                     executable: try Self.loneFront(in: sandbox))
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("warning: a password on the command line can be seen by other users"))
        #expect(result.stderr.components(separatedBy: "warning:").count == 2)
    }
}
