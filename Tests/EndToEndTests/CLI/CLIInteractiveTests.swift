import Foundation
import Testing

/// `keychainctl -i`, the mode go-keyring drives `security` in.
@Suite struct CLIInteractiveTests {
    @Test("A go-keyring style line on standard input stores the password, with no prompt and no output")
    func goKeyringSet() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-i"], stdin: "add-generic-password -U -s 'my-app' -a 'anon' -w 'go-keyring-base64:c2VjcmV0'\n")
        #expect(result.status == 0)
        #expect(result.stdout == "")
        #expect(result.stderr == "")
        #expect(try sandbox.run(["find-generic-password", "-s", "my-app", "-wa", "anon"]).stdout
                == "go-keyring-base64:c2VjcmV0\n")
    }

    @Test("Commands run in order and the exit status is the last command's")
    func lastStatusWins() throws {
        let sandbox = try CLISandbox()
        let ok = try sandbox.run(["-i"], stdin: "find-generic-password -s none\nadd-generic-password -a a -s s -w x\n")
        #expect(ok.status == 0)
        let failing = try sandbox.run(["-i"], stdin: "find-generic-password -s s\nfind-generic-password -s none\n")
        #expect(failing.status == 44)
    }

    @Test("A failed command is reported as \"<command>: returned <OSStatus>\" on standard error")
    func returnedLine() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-i"], stdin: "find-generic-password -s none\n")
        #expect(result.stderr.contains("could not be found"))
        #expect(result.stderr.hasSuffix("find-generic-password: returned -25300\n"))
    }

    @Test("-q stops the \"returned\" reports")
    func quiet() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-q", "-i"], stdin: "find-generic-password -s none\n")
        #expect(!result.stderr.contains("returned"))
        #expect(result.status == 44)
    }

    @Test("Quotes and backslashes group words as security's line splitter does")
    func quoting() throws {
        let sandbox = try CLISandbox()
        let line = #"add-generic-password -s "my service" -a al\ ice -w 'pass word'"# + "\n"
        #expect(try sandbox.run(["-i"], stdin: line).status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "my service", "-a", "al ice", "-w"]).stdout == "pass word\n")
    }

    @Test("Empty lines are skipped and exit ends the session")
    func emptyLinesAndExit() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-i"], stdin: "\n   \nexit\nadd-generic-password -a a -s s -w x\n")
        #expect(result.status == 0)
        #expect(try sandbox.run(["find-generic-password", "-s", "s"]).status == 44)
    }

    @Test("A bad command line inside the session is reported and the session goes on")
    func badUsageInSession() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-i"], stdin: "find-generic-password --bogus\nadd-generic-password -a a -s s -w x\n")
        #expect(result.status == 0)
        #expect(result.stderr.contains("find-generic-password: returned 2"))
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).stdout == "x\n")
    }

    @Test("-p sets the prompt and implies -i; the prompt is not shown when standard input is not a terminal")
    func promptImpliesInteractive() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-p", "kc> "], stdin: "add-generic-password -a a -s s -w x\n")
        #expect(result.status == 0)
        #expect(!result.stderr.contains("kc> "))
        #expect(try sandbox.run(["find-generic-password", "-s", "s", "-w"]).stdout == "x\n")
    }

    @Test("-v echoes each command to standard error")
    func verbose() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-v", "-i"], stdin: "list-keychains\n")
        #expect(result.stderr.hasPrefix("list-keychains"))
    }
}
