import Foundation
import Testing

/// keychainctl reads the per-credential command lines (add, find and delete of generic and
/// internet passwords) by hand when it can, and leaves the rest to swift-argument-parser
/// (QuickParse in the keychainctl sources). These tests run each command line of a table both
/// ways, on identical copies of one keychain, and require the same exit status, output, errors
/// and resulting keychain; and they check which reader each command line went to, so the table
/// does test the hand-written one.
@Suite struct CLIQuickParseTests {
    /// One command line, and whether the hand-written reader must take it.
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        let quick: Bool
        var stdin: String = ""
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // Finds: every option and flag, long and short names, keychain arguments.
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "--service", "web", "--account", "alice", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-g"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "--json"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "--json"], quick: true),
        Case(arguments: ["find-generic-password", "-l", "Web login", "-j", "note", "-D", "kind", "-G", "gen", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-c", "abcd", "-C", "wxyz", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-c", "toolong", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "nothing-here", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-a", "-w", "-s", "web"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", "other.group", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "KEYCHAIN", "-w"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "KEYCHAIN"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "KEYCHAIN", "KEYCHAIN"], quick: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "missing.keychain"], quick: true),
        Case(arguments: ["find-generic-password", "--label", "Web login", "--comment", "note", "--kind", "kind",
                         "--generic", "gen", "--creator", "abcd", "--type", "wxyz", "-g"], quick: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-a", "bob", "-w"], quick: true),
        Case(arguments: ["find-internet-password", "--server", "example.com", "--account", "bob", "--security-domain", "dom",
                         "--path", "/x", "--protocol", "htps", "--authentication-type", "dflt", "--label", "l",
                         "--kind", "k", "--comment", "c", "--creator", "abcd", "--type", "wxyz", "--json"], quick: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-r", "htps", "-P", "443", "-p", "/x", "-d", "dom", "-t", "dflt"], quick: true),
        Case(arguments: ["find-internet-password", "--server", "example.com", "--port", "+443", "-g"], quick: true),
        // Adds and deletes change the keychain: the copies are compared afterwards.
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "carol", "-w", "pw1"], quick: true),
        Case(arguments: ["add-generic-password", "-s", "web", "-a", "alice", "-w", "pw2"], quick: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice", "-w", "pw3", "-l", "L", "-j", "c"], quick: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "dave", "-p", "-starts-with-dash", "-A", "-T", "/bin/a", "-T", "/bin/b"], quick: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "erin", "-w"], quick: true, stdin: "typed\n"),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "frank"], quick: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "gina", "-w", "x", "KEYCHAIN"], quick: true),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-r", "htps", "-P", "8443", "-w", "pw"], quick: true),
        Case(arguments: ["add-generic-password", "--service", "new", "--account", "jack", "--password", "pw", "-U",
                         "--access-group", "other.group"], quick: true),
        Case(arguments: ["add-internet-password", "--server", "example.org", "--account", "kim", "--password", "pw",
                         "--keychain", "KEYCHAIN"], quick: true),
        Case(arguments: ["delete-generic-password", "-s", "web", "-a", "alice"], quick: true),
        Case(arguments: ["delete-generic-password", "-s", "nothing-here"], quick: true),
        Case(arguments: ["delete-internet-password", "-s", "example.com"], quick: true),
        // Left to the parser: help, errors, unusual spellings. Output must still match, trivially.
        Case(arguments: ["find-generic-password", "--help"], quick: false),
        Case(arguments: ["find-generic-password", "-h"], quick: false),
        Case(arguments: ["find-generic-password", "-a", "--help"], quick: false),
        Case(arguments: ["find-generic-password", "-s"], quick: false),
        Case(arguments: ["find-generic-password", "-x"], quick: false),
        Case(arguments: ["find-generic-password", "-sweb", "-w"], quick: false),
        Case(arguments: ["find-generic-password", "--service=web", "-w"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-gw"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "-w"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-s", "other"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "KEYCHAIN", "KEYCHAIN"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "-w"], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", ""], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", ""], quick: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--", "KEYCHAIN"], quick: false),
        Case(arguments: ["find-generic-password", "help"], quick: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "http"], quick: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "70000"], quick: false),
        Case(arguments: ["add-generic-password", "-s", "new"], quick: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "ivan", "-w", "x", "KEYCHAIN", "KEYCHAIN"], quick: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "ivan", "-U", "-U", "-w", "x"], quick: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "-w"], quick: false),
        Case(arguments: ["find-generic-password", "--version"], quick: false),
        Case(arguments: ["find-generic-pasword", "-s", "web"], quick: false),
        Case(arguments: ["dump-keychain"], quick: false),
    ]

    /// A sandbox holding the items every case starts from, and a named keychain beside it.
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

    /// What a run leaves that the two readers must agree on, with the sandbox's own folder
    /// written as HOME so that two sandboxes compare. The keychains' dumps compare without their
    /// dates: an add or update in the two copies happens a moment apart.
    static func observed(_ result: CLIResult, in sandbox: CLISandbox, named: String) throws -> [String] {
        let home = sandbox.home.path
        let dump = try sandbox.run(["dump-keychain", "-d"])
        let dumpNamed = try sandbox.run(["dump-keychain", "-d", named])
        let undated = [dump.stdout, dumpNamed.stdout].map { text in
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.contains("<timedate>=") ? String(line.prefix { $0 != "=" }) : String(line) }
                .joined(separator: "\n")
        }
        return (["exit \(result.status)", result.stdout, result.stderr] + undated)
            .map { $0.replacingOccurrences(of: home, with: "HOME") }
    }

    @Test("Each command line gives the same status, output, errors and keychain through either reader",
          arguments: cases)
    func bothReadersAgree(_ testCase: Case) throws {
        let (template, templateNamed) = try Self.seeded()
        let relative = String(templateNamed.dropFirst(template.home.path.count))
        var seen: [[String]] = []
        for mode in ["full", "automatic"] {
            let sandbox = try Self.copy(of: template)
            let named = sandbox.home.path + relative
            let arguments = testCase.arguments.map { $0 == "KEYCHAIN" ? named : $0 }
            let result = try sandbox.run(arguments, stdin: testCase.stdin, environment: ["KEYCHAINCTL_PARSER": mode])
            seen.append(try Self.observed(result, in: sandbox, named: named))
        }
        #expect(seen[0] == seen[1], "\(testCase)")
    }

    @Test("The hand-written reader takes exactly the command lines the table says it takes", arguments: cases)
    func readerChoice(_ testCase: Case) throws {
        let (sandbox, named) = try Self.seeded()
        let arguments = testCase.arguments.map { $0 == "KEYCHAIN" ? named : $0 }
        let result = try sandbox.run(arguments, stdin: testCase.stdin, environment: ["KEYCHAINCTL_PARSER": "quick-only"])
        if testCase.quick {
            #expect(result.status != 125, "\(testCase): \(result)")
        } else {
            #expect(result.status == 125, "\(testCase): \(result)")
            #expect(result.stderr.contains("left to the full parser"))
        }
    }
}
