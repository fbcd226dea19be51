import Foundation
import Testing

/// `keychainctl unlock-keychain --password-fd N` and `--password-fd -`, with real descriptors
/// (the shell opens them: Foundation's Process cannot pass descriptors beyond 0-2).
@Suite struct CLIPasswordDescriptorTests {
    /// Runs `script` with /bin/sh in the sandbox, `$K` being keychainctl.
    static func shell(_ sandbox: CLISandbox, _ script: String, stdin: String? = nil) throws -> CLIResult {
        try sandbox.run(["-c", script], stdin: stdin, environment: ["K": try CLIBinary.url().path],
                        executable: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test("--password-fd 3 reads the password from descriptor 3: right unlocks (exit 0), wrong is errSecAuthFailed (exit 51)")
    func fromDescriptor() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        try "pw\nnot read\n".write(toFile: sandbox.path("right"), atomically: true, encoding: .utf8)
        try "wrong\n".write(toFile: sandbox.path("wrong"), atomically: true, encoding: .utf8)
        let wrong = try Self.shell(sandbox, "\"$K\" unlock-keychain --password-fd 3 '\(path)' 3<wrong")
        #expect(wrong.status == 51, "\(wrong)")
        #expect(!wrong.stderr.contains("wrong\n"))
        // In one process, so the unlock is seen whether or not the kernel keyring shares it.
        let session = try Self.shell(sandbox, "\"$K\" -i 3<right",
                                     stdin: "unlock-keychain --password-fd 3 \(path)\nfind-generic-password -s guarded -w \(path)\n")
        #expect(session.status == 0, "\(session)")
        #expect(session.stdout == "inside\n")
    }

    @Test("--password-fd - reads one line from standard input")
    func fromStandardInput() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        let wrong = try sandbox.run(["unlock-keychain", "--password-fd", "-", path], stdin: "nope\n")
        #expect(wrong.status == 51, "\(wrong)")
        let right = try sandbox.run(["unlock-keychain", "--password-fd", "-", path], stdin: "pw\r\n")
        #expect(right.status == 0, "\(right)")
        #expect(right.stderr.isEmpty, "no warning: the password was not on the command line")
    }

    @Test("A descriptor that is not open, open only for writing, or empty is refused (exit 1); with -p or -u it is bad usage (exit 2)")
    func refusals() throws {
        let sandbox = try CLISandbox()
        let path = try CLILockTests.lockedKeychain(sandbox)
        let closed = try Self.shell(sandbox, "\"$K\" unlock-keychain --password-fd 9 '\(path)'")
        #expect(closed.status == 1, "\(closed)")
        #expect(closed.stderr.contains("file descriptor 9 is not open"), "\(closed)")
        let writeOnly = try Self.shell(sandbox, "\"$K\" unlock-keychain --password-fd 4 '\(path)' 4>out")
        #expect(writeOnly.status == 1, "\(writeOnly)")
        #expect(writeOnly.stderr.contains("open for writing only"), "\(writeOnly)")
        let empty = try Self.shell(sandbox, "\"$K\" unlock-keychain --password-fd 3 '\(path)' 3</dev/null")
        #expect(empty.status == 1, "\(empty)")
        #expect(empty.stderr.contains("no password was given on file descriptor 3"), "\(empty)")
        for extra in [["-p", "pw"], ["-u"]] {
            let both = try sandbox.run(["unlock-keychain", "--password-fd", "3"] + extra + [path])
            #expect(both.status == 2, "\(both)")
        }
        let notNumber = try sandbox.run(["unlock-keychain", "--password-fd", "three", path])
        #expect(notNumber.status == 2, "\(notNumber)")
        // Still locked after all of them.
        #expect(try sandbox.run(["find-generic-password", "-s", "guarded", "-w", path]).status == 36)
    }
}
