import Foundation
import KeychainStore
import KeychainTestSupport
import Testing

/// The installed `keychainctl` is a small front (Sources/KeychainctlFront) that serves the common
/// per-credential command lines through the engine alone and hands everything else to
/// `keychainctl-full` (docs/design-notes.md, "keychainctl's front"). These tests run each command
/// line of a table through the front and with the front told to hand everything on
/// (`KEYCHAINCTL_FRONT=off`), on identical copies of one keychain, and require the same exit
/// status, output, errors and resulting keychain; and they check which command lines the front
/// serves itself, by running a copy of the front that has no keychainctl-full beside it.
@Suite struct CLIFrontTests {
    /// One command line, and whether the front must serve it itself.
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        let served: Bool
        var stdin: String = ""
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // Served: find (-w, -g or neither), add (-U too) and delete, on the default keychain.
        Case(arguments: ["find-generic-password", "-s", "web"], served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "-g"], served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "-g"], served: true),
        Case(arguments: ["find-generic-password", "-s", "binary", "-g"], served: true),
        Case(arguments: ["find-generic-password", "-l", "Web login", "--access-group", "swift-keychain.shared"], served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-g"], served: true),
        Case(arguments: ["find-internet-password", "-a", "bob"], served: true),
        Case(arguments: ["delete-generic-password", "-s", "web", "-a", "alice"], served: true),
        Case(arguments: ["delete-generic-password", "-s", "binary"], served: true),
        Case(arguments: ["delete-generic-password"], served: true),
        Case(arguments: ["delete-internet-password", "-s", "example.com"], served: true),
        Case(arguments: ["delete-internet-password", "-s", "example.com", "-a", "bob", "-P", "443", "-p", "/x", "-d", "dom"], served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-a", "alice", "-w"], served: true),
        Case(arguments: ["find-generic-password", "--service", "web", "--account", "alice", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-a", "alice", "-s", "web", "-l", "not the label", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-l", "Web login", "-j", "note", "-D", "kind", "-G", "gen", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-s", "binary", "-w"], served: true),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", "swift-keychain.shared", "-w"], served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-a", "bob", "-w"], served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "443", "-p", "/x", "-d", "dom", "-w"], served: true),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "+443", "-w"], served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "carol", "-w", "pw1"], served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "dave", "-p", "-starts-with-dash", "-A", "-T", "/bin/a", "-T", "/bin/b"], served: true),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "frank"], served: true),
        Case(arguments: ["add-generic-password", "--service", "new", "--account", "jack", "--password", "pw", "-l", "L", "-j", "c",
                         "-D", "k", "-G", "g"], served: true),
        Case(arguments: ["add-generic-password", "-a", "-w", "-s", "new", "-w", "pw"], served: true),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-P", "8443", "-p", "/p", "-d", "d", "-w", "pw"], served: true),
        Case(arguments: ["add-internet-password", "--server", "example.org", "--account", "kim", "--password", "pw",
                         "--access-group", "swift-keychain.shared"], served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice", "-w", "pw3"], served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice", "-w", "pw3", "-l", "L", "-j", "c"], served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "web", "-a", "alice"], served: true),
        Case(arguments: ["add-generic-password", "-U", "-s", "new", "-a", "lee", "-w", "pw"], served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-w", "pw4"], served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-P", "443", "-p", "/x", "-d", "dom",
                         "-l", "L", "-w", "pw5"], served: true),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.net", "-a", "bob", "-w", "pw6"], served: true),
        // Handed on: engine errors (every message and status is keychainctl-full's).
        Case(arguments: ["find-generic-password", "-s", "nothing-here", "-w"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--access-group", "other.group", "-w"], served: false),
        Case(arguments: ["add-generic-password", "-s", "web", "-a", "alice", "-w", "pw2"], served: false),
        Case(arguments: ["delete-generic-password", "-s", "nothing-here"], served: false),
        Case(arguments: ["find-generic-password", "-s", "nothing-here", "-g"], served: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "--access-group", "other.group"], served: false),
        // Handed on: what the front does not serve.
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "--json"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--json"], served: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "KEYCHAIN"], served: false),
        Case(arguments: ["delete-generic-password", "-s", "web", "-w"], served: false),
        Case(arguments: ["delete-internet-password", "-s", "example.com", "-r", "htps"], served: false),
        Case(arguments: ["find-generic-password", "-c", "abcd", "-C", "wxyz", "-w"], served: false),
        Case(arguments: ["find-generic-password", "-c", "toolong", "-w"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "--keychain", "KEYCHAIN", "-w"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "KEYCHAIN"], served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-r", "htps", "-w"], served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "70000", "-w"], served: false),
        Case(arguments: ["find-internet-password", "-s", "example.com", "-P", "http", "-w"], served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "erin", "-w"], served: false, stdin: "typed\n"),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "erin", "-w", "-"], served: false, stdin: "typed\n"),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "gina", "-w", "x", "KEYCHAIN"], served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-w", "x"], served: false),
        Case(arguments: ["add-internet-password", "-s", "example.org", "-a", "hal", "-r", "htps", "-w", "pw"], served: false),
        Case(arguments: ["add-internet-password", "-U", "-s", "example.com", "-a", "bob", "-r", "htps", "-w", "pw"], served: false),
        Case(arguments: ["add-generic-password", "-s", "new", "-a", "x", "--password-fd", "0"], served: false, stdin: "pw\n"),
        Case(arguments: ["find-generic-password", "-h"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "--access-group", ""], served: false),
        Case(arguments: ["find-generic-password", "-sweb", "-w"], served: false),
        Case(arguments: ["find-generic-password", "-s", "web", "-w", "-w"], served: false),
        Case(arguments: ["-v", "find-generic-password", "-s", "web", "-w"], served: false),
        Case(arguments: ["-q", "find-generic-password", "-s", "web", "-w"], served: false),
        Case(arguments: ["-h"], served: false),
        Case(arguments: ["-i"], served: false, stdin: "find-generic-password -s web -w\n"),
        Case(arguments: ["no-such-command"], served: false),
        Case(arguments: ["dump-keychain"], served: false),
        Case(arguments: ["--version"], served: false),
        Case(arguments: [], served: false),
    ]

    /// The keychains every case starts from (the quick-parse tests' seed and a binary password).
    static func seeded() throws -> (CLISandbox, String) {
        let (sandbox, named) = try CLIQuickParseTests.seeded()
        let binary = try sandbox.run(["add-generic-password", "-s", "binary", "-a", "x", "-w", "caf\u{e9}\u{1}"])
        try #require(binary.status == 0, "\(binary)")
        return (sandbox, named)
    }

    @Test("Each command line gives the same status, output, errors and keychain through the front and through keychainctl-full",
          arguments: cases)
    func frontAndFullAgree(_ testCase: Case) throws {
        let (template, templateNamed) = try Self.seeded()
        let relative = String(templateNamed.dropFirst(template.home.path.count))
        var seen: [[String]] = []
        for front in ["off", "on"] {
            let sandbox = try CLIQuickParseTests.copy(of: template)
            let named = sandbox.home.path + relative
            let arguments = testCase.arguments.map { $0 == "KEYCHAIN" ? named : $0 }
            let result = try sandbox.run(arguments, stdin: testCase.stdin, environment: ["KEYCHAINCTL_FRONT": front])
            seen.append(try CLIQuickParseTests.observed(result, in: sandbox, named: named))
        }
        #expect(seen[0] == seen[1], "\(testCase)")
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

    @Test("KEYCHAINCTL_FRONT=off and KEYCHAINCTL_PARSER hand even a served command line on")
    func switchesHandOn() throws {
        let (sandbox, lone, arguments) = try Self.loneFrontServingALookup()
        for environment in [["KEYCHAINCTL_FRONT": "off"], ["KEYCHAINCTL_PARSER": "full"], ["KEYCHAINCTL_PARSER": "quick-only"]] {
            let result = try sandbox.run(arguments, environment: environment, executable: lone)
            #expect(result.status == 1 && result.stderr.contains("cannot run"), "\(environment): \(result)")
        }
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
        let viaFull = try sandbox.run(arguments, environment: ["KEYCHAINCTL_FRONT": "off"])
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
        let viaFull = try sandbox.run(arguments, environment: ["KEYCHAINCTL_FRONT": "off"])
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
