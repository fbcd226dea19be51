import Foundation
import Testing

/// keychainctl's generic-password subcommands, run as a built binary.
@Suite struct CLIGenericPasswordTests {
    @Test("add-generic-password then find-generic-password -w prints only the password and a newline")
    func addThenFindPasswordOnly() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["find-generic-password", "-a", "alice", "-s", "example.com", "-w"])
        #expect(result.status == 0)
        #expect(result.stdout == "s3cret\n")
        #expect(result.stderr == "")
    }

    @Test("find-generic-password prints security's attribute block on standard output and nothing on standard error")
    func findPrintsAttributeBlock() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["find-generic-password", "-s", "example.com"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(4)) == ["keychain: \"\(sandbox.defaultKeychain.path)\"", "version: 512",
                                           "class: \"genp\"", "attributes:"])
        #expect(lines.contains("    0x00000007 <blob>=\"example.com\""))
        #expect(lines.contains("    0x00000008 <blob>=<NULL>"))
        #expect(lines.contains("    \"acct\"<blob>=\"alice\""))
        #expect(lines.contains("    \"svce\"<blob>=\"example.com\""))
        #expect(lines.contains("    \"crtr\"<uint32>=<NULL>"))
        #expect(lines.contains("    \"invi\"<sint32>=<NULL>"))
        #expect(lines.contains { $0.hasPrefix("    \"cdat\"<timedate>=0x") && $0.hasSuffix("Z\\000\"") })
        #expect(!result.stdout.contains("s3cret"))
    }

    @Test("The attribute lines come in the macOS order for generic passwords, with sync (not in macOS file keychains) before type")
    func attributeOrder() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["find-generic-password", "-s", "example.com"])
        let tags = result.stdout.split(separator: "\n").dropFirst(4).map { line in
            String(line.dropFirst(4).prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
        }
        #expect(tags == ["0x00000007", "0x00000008", "\"acct\"", "\"cdat\"", "\"crtr\"", "\"cusi\"", "\"desc\"",
                         "\"gena\"", "\"icmt\"", "\"invi\"", "\"mdat\"", "\"nega\"", "\"prot\"", "\"scrp\"",
                         "\"svce\"", "\"sync\"", "\"type\""])
    }

    @Test("-g adds the password line on standard error, after the attributes on standard output")
    func findWithPasswordOnStderr() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["find-generic-password", "-a", "alice", "-s", "example.com", "-g"])
        #expect(result.status == 0)
        #expect(result.stderr == "password: \"s3cret\"\n")
        #expect(result.stdout.hasPrefix("keychain: "))
        #expect(!result.stdout.contains("s3cret\""))
    }

    @Test("-w wins over -g: only the password, on standard output")
    func passwordOnlyWinsOverG() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["find-generic-password", "-s", "example.com", "-g", "-w"])
        #expect(result.stdout == "s3cret\n")
        #expect(result.stderr == "")
    }

    @Test("A missing item exits 44 with security's sentence, the errSec name and a hint on one line of standard error")
    func missingItem() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["find-generic-password", "-a", "nobody", "-s", "nowhere", "-w"])
        #expect(result.status == 44)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("keychainctl: SecKeychainSearchCopyNext: The specified item could not be found in the keychain."))
        #expect(result.stderr.contains("[errSecItemNotFound -25300]"))
        #expect(result.stderr.contains("Hint: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(result.stderr.hasSuffix("\n"))
    }

    @Test("Adding an item that exists exits 45 (errSecDuplicateItem) and keeps the old password")
    func duplicateItem() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "first")
        let result = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-w", "second"])
        #expect(result.status == 45)
        #expect(result.stderr.contains("The specified item already exists in the keychain."))
        #expect(result.stderr.contains("errSecDuplicateItem"))
        #expect(!result.stderr.contains("second"))
        #expect(try sandbox.run(["find-generic-password", "-a", "alice", "-s", "example.com", "-w"]).stdout == "first\n")
    }

    @Test("-U replaces the password of an existing item")
    func updateExisting() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "first")
        let result = try sandbox.run(["add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "second"])
        #expect(result.status == 0)
        #expect(try sandbox.run(["find-generic-password", "-a", "alice", "-s", "example.com", "-w"]).stdout == "second\n")
    }

    @Test("-U adds the item when none exists")
    func updateAddsWhenMissing() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-w", "new"])
        #expect(result.status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "new\n")
    }

    @Test("-U without -w changes the other attributes and keeps the password")
    func updateKeepsPasswordWithoutW() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "kept")
        #expect(try sandbox.run(["add-generic-password", "-U", "-a", "alice", "-s", "example.com", "-j", "note"]).status == 0)
        let found = try sandbox.run(["find-generic-password", "-s", "example.com", "-g"])
        #expect(found.stdout.contains("    \"icmt\"<blob>=\"note\""))
        #expect(found.stderr == "password: \"kept\"\n")
    }

    @Test("A bare trailing -w reads the password as one line from piped standard input, without prompting")
    func trailingWReadsPipedLine() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-w"], stdin: "piped pw\nignored\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "piped pw\n")
    }

    @Test("-w - reads the password from standard input too")
    func dashReadsStdin() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-w", "-", "-a", "alice", "-s", "example.com"], stdin: "from-stdin\r\n")
        #expect(result.status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "from-stdin\n")
    }

    @Test("A trailing -w with empty standard input fails with exit 1 and stores nothing")
    func emptyStdinFails() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-w"], stdin: "")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no password was given on standard input"))
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com"]).status == 44)
    }

    @Test("-p is the older spelling of -w in add-generic-password")
    func legacyP() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-p", "legacy"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "legacy\n")
    }

    @Test("Without -w the item is stored with an empty password")
    func noPasswordIsEmpty() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-g"]).stderr == "password: \n")
    }

    @Test("-w takes the next argument as the password even when it starts with a dash, as getopt does")
    func passwordStartingWithDash() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-w", "-dashed"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "-dashed\n")
    }

    @Test("-c and -C store four-character codes as numbers that print as their characters and can be matched")
    func fourCharacterCodes() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "notes", password: "x", extra: ["-c", "abcd", "-C", "note"])
        let result = try sandbox.run(["find-generic-password", "-C", "note"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("    \"crtr\"<uint32>=\"abcd\""))
        #expect(result.stdout.contains("    \"type\"<uint32>=\"note\""))
        #expect(try sandbox.run(["find-generic-password", "-C", "othr"]).status == 44)
        #expect(try sandbox.run(["find-generic-password", "-c", "abcd", "-w"]).stdout == "x\n")
    }

    @Test("A four-character code of the wrong length exits 1 with security's suggestion")
    func badFourCharacterCode() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "example.com", "-C", "ftp", "-w", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("four-character codes must be exactly 4 characters long"))
        #expect(result.stderr.contains("Try \"ftp \" instead of \"ftp\""))
    }

    @Test("-l, -D, -j and -G are stored as label, description, comment and generic attribute")
    func otherAttributes() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "x",
                               extra: ["-l", "My label", "-D", "application password", "-j", "a comment", "-G", "gen"])
        let result = try sandbox.run(["find-generic-password", "-s", "example.com"])
        #expect(result.stdout.contains("    0x00000007 <blob>=\"My label\""))
        #expect(result.stdout.contains("    \"desc\"<blob>=\"application password\""))
        #expect(result.stdout.contains("    \"icmt\"<blob>=\"a comment\""))
        #expect(result.stdout.contains("    \"gena\"<blob>=\"gen\""))
    }

    @Test("A password with unprintable bytes prints as lower-case hex with -w and in security's mixed form with -g")
    func unprintablePassword() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "tab\there")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "7461620968657265\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-g"]).stderr
                == "password: 0x7461620968657265  \"tab\\011here\"\n")
    }

    @Test("A non-ASCII password prints as two hex digits per UTF-8 byte with -w")
    func nonASCIIPassword() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "pässword")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com", "-w"]).stdout == "70c3a47373776f7264\n")
    }

    @Test("delete-generic-password prints the item, deletes it and says so on standard error")
    func deleteItem() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "example.com", password: "s3cret")
        let result = try sandbox.run(["delete-generic-password", "-a", "alice", "-s", "example.com"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("class: \"genp\""))
        #expect(result.stderr == "password has been deleted.\n")
        #expect(try sandbox.run(["find-generic-password", "-s", "example.com"]).status == 44)
    }

    @Test("delete-generic-password deletes only the first match, as security does")
    func deleteOnlyFirst() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "shared", password: "a")
        try sandbox.addGeneric(account: "bob", service: "shared", password: "b")
        #expect(try sandbox.run(["delete-generic-password", "-s", "shared"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "shared"]).status == 0)
        #expect(try sandbox.run(["delete-generic-password", "-s", "shared"]).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "shared"]).status == 44)
    }

    @Test("Deleting a missing item exits 44")
    func deleteMissing() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["delete-generic-password", "-a", "nobody", "-s", "nowhere"])
        #expect(result.status == 44)
        #expect(result.stderr.contains("could not be found"))
    }

    @Test("Grouped short flags work as go-keyring passes them (-wa account)")
    func groupedShortFlags() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "svc", password: "grouped")
        let result = try sandbox.run(["find-generic-password", "-s", "svc", "-wa", "alice"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "grouped\n")
    }

    @Test("With account and service both given, other attributes do not narrow the search (security's primary-key rule)")
    func primaryKeyRule() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "svc", password: "pk", extra: ["-l", "real label"])
        #expect(try sandbox.run(["find-generic-password", "-a", "alice", "-s", "svc", "-l", "other", "-w"]).stdout == "pk\n")
    }

    @Test("Without both account and service, every attribute given narrows the search")
    func partialKeyNarrows() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "svc", password: "pk", extra: ["-l", "real label"])
        #expect(try sandbox.run(["find-generic-password", "-s", "svc", "-l", "other"]).status == 44)
        #expect(try sandbox.run(["find-generic-password", "-s", "svc", "-l", "real label", "-w"]).stdout == "pk\n")
    }

    @Test("-A and -T are accepted for compatibility")
    func accessListFlagsAccepted() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-A", "-T", "/usr/bin/git", "-T", "", "-a", "alice", "-s", "svc", "-w", "x"])
        #expect(result.status == 0)
    }

    @Test("Account and service are both required to add: bad usage exits 2 with the usage on standard error")
    func addRequiresAccountAndService() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-s", "svc", "-w", "x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("account (-a)"))
        #expect(result.stderr.contains("Usage"))
        #expect(result.stdout == "")
    }

    @Test("A password given on the command line never appears in an error message")
    func passwordNotInErrors() throws {
        let sandbox = try CLISandbox()
        try sandbox.addGeneric(account: "alice", service: "svc", password: "x")
        let result = try sandbox.run(["add-generic-password", "-a", "alice", "-s", "svc", "-w", "TopSecretValue"])
        #expect(result.status == 45)
        #expect(!result.stderr.contains("TopSecretValue"))
        #expect(!result.stdout.contains("TopSecretValue"))
    }
}
