import Foundation
import Testing

/// keychainctl's internet-password subcommands, run as a built binary.
@Suite struct CLIInternetPasswordTests {
    static let fullItem = ["add-internet-password", "-a", "alice", "-s", "example.com", "-r", "htps", "-P", "443",
                           "-p", "/login", "-d", "realm", "-t", "form", "-w", "web-secret"]

    @Test("add-internet-password then find-internet-password -w prints only the password")
    func addThenFind() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        let result = try sandbox.run(["find-internet-password", "-s", "example.com", "-w"])
        #expect(result.status == 0)
        #expect(result.stdout == "web-secret\n")
    }

    @Test("find-internet-password prints protocol, port, path, domain and authentication type as security does")
    func findPrintsInternetAttributes() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        let result = try sandbox.run(["find-internet-password", "-s", "example.com"])
        #expect(result.stdout.contains("class: \"inet\"\n"))
        #expect(result.stdout.contains("    \"ptcl\"<uint32>=\"htps\"\n"))
        #expect(result.stdout.contains("    \"port\"<uint32>=0x000001BB \n"))
        #expect(result.stdout.contains("    \"path\"<blob>=\"/login\"\n"))
        #expect(result.stdout.contains("    \"sdmn\"<blob>=\"realm\"\n"))
        #expect(result.stdout.contains("    \"atyp\"<blob>=\"form\"\n"))
        #expect(result.stdout.contains("    \"srvr\"<blob>=\"example.com\"\n"))
        #expect(result.stdout.contains("    0x00000007 <blob>=\"example.com\"\n"))
        #expect(result.stderr == "")
    }

    @Test("The attribute lines come in the macOS order for internet passwords, with sync (not in macOS file keychains) before type")
    func attributeOrder() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        let result = try sandbox.run(["find-internet-password", "-s", "example.com"])
        let tags = result.stdout.split(separator: "\n").dropFirst(4).map { line in
            String(line.dropFirst(4).prefix { $0 != "<" }).trimmingCharacters(in: .whitespaces)
        }
        #expect(tags == ["0x00000007", "0x00000008", "\"acct\"", "\"atyp\"", "\"cdat\"", "\"crtr\"", "\"cusi\"",
                         "\"desc\"", "\"icmt\"", "\"invi\"", "\"mdat\"", "\"nega\"", "\"path\"", "\"port\"",
                         "\"prot\"", "\"ptcl\"", "\"scrp\"", "\"sdmn\"", "\"srvr\"", "\"sync\"", "\"type\""])
    }

    @Test("A new internet password gets the authentication type \"dflt\" when -t is not given")
    func defaultAuthenticationType() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["add-internet-password", "-a", "alice", "-s", "example.com", "-w", "x"]).status == 0)
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com"]).stdout.contains("    \"atyp\"<blob>=\"dflt\"\n"))
    }

    @Test("-g prints the internet password on standard error")
    func findWithG() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com", "-g"]).stderr == "password: \"web-secret\"\n")
    }

    @Test("Each of -r, -P, -p, -d, -t narrows the search")
    func attributesNarrowSearch() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        for (flag, wrong, right) in [("-r", "http", "htps"), ("-P", "80", "443"), ("-p", "/other", "/login"),
                                     ("-d", "other", "realm"), ("-t", "dflt", "form")] {
            #expect(try sandbox.run(["find-internet-password", "-s", "example.com", flag, wrong]).status == 44, "\(flag)")
            #expect(try sandbox.run(["find-internet-password", "-s", "example.com", flag, right]).status == 0, "\(flag)")
        }
    }

    @Test("-U updates an internet password in place")
    func updateInternet() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        #expect(try sandbox.run(["add-internet-password", "-U", "-a", "alice", "-s", "example.com", "-r", "htps",
                                 "-w", "changed"]).status == 0)
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com", "-w"]).stdout == "changed\n")
    }

    @Test("Adding the same internet password twice exits 45")
    func duplicateInternet() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        let result = try sandbox.run(Self.fullItem)
        #expect(result.status == 45)
        #expect(result.stderr.contains("SecKeychainAddInternetPassword"))
    }

    @Test("delete-internet-password deletes the item")
    func deleteInternet() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(Self.fullItem).status == 0)
        let result = try sandbox.run(["delete-internet-password", "-a", "alice", "-s", "example.com"])
        #expect(result.status == 0)
        #expect(result.stderr == "password has been deleted.\n")
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com"]).status == 44)
    }

    @Test("A three-letter protocol exits 1 and suggests the padded code")
    func shortProtocol() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["find-internet-password", "-s", "example.com", "-r", "ftp"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Try \"ftp \""))
    }

    @Test("A port outside 0...65535 is bad usage")
    func portOutOfRange() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com", "-P", "70000"]).status == 2)
        #expect(try sandbox.run(["find-internet-password", "-s", "example.com", "-P", "http"]).status == 2)
    }

    @Test("Account and server are both required to add an internet password")
    func addRequiresServer() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-internet-password", "-a", "alice", "-w", "x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("server (-s)"))
    }
}
