import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychain-pam-helper run directly, as pam_keychain.so runs it (passwords NUL-terminated on
/// standard input), in a private HOME: what it does to the login keychain, and that malformed
/// input is refused before the keychain is touched, with one line on standard error that never
/// holds a password.
@Suite("keychain-pam-helper")
struct PAMHelperInputTests {
    let sandbox: CLISandbox
    let runner: HelperRunner
    let helper: URL

    init() throws {
        sandbox = try CLISandbox()
        runner = HelperRunner(sandbox: sandbox)
        helper = try HelperRunner.binary("keychain-pam-helper")
    }

    private func nul(_ passwords: String...) -> Data {
        Data(passwords.map { $0 + "\0" }.joined().utf8)
    }

    private func makeKeychain(password: String?) throws {
        try #require(sandbox.run(["show-keychain-info"]).status == 0)  // creates the default keychain
        if let password {
            let set = try sandbox.run(["set-keychain-password"], stdin: password + "\n")
            try #require(set.status == 0, "\(set)")
            try #require(sandbox.run(["lock-keychain"]).status == 0)
        }
    }

    @Test("No login keychain: nothing to unlock (exit 3) and nothing created; --create makes it with the password")
    func missingKeychain() throws {
        let plain = try runner.run(helper, ["unlock"], stdin: nul("first-pass"))
        #expect(plain.status == 3, "\(plain)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))
        let change = try runner.run(helper, ["change-password"], stdin: nul("a", "b"))
        #expect(change.status == 3, "\(change)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.defaultKeychain.path))

        let created = try runner.run(helper, ["unlock", "--create"], stdin: nul("first-pass"))
        #expect(created.status == 0, "\(created)")
        #expect(created.stderr.contains("created \(sandbox.defaultKeychain.path)"), "\(created)")
        #expect(try sandbox.run(["lock-keychain"]).status == 0)
        #expect(try sandbox.run(["unlock-keychain", "--password-fd", "-"], stdin: "wrong\n").status == 51)
        #expect(try sandbox.run(["unlock-keychain", "--password-fd", "-"], stdin: "first-pass\n").status == 0)
    }

    @Test("Unlock and re-key; a wrong password is exit 4 and changes nothing")
    func unlockAndChange() throws {
        try makeKeychain(password: "old-pass")
        let wrong = try runner.run(helper, ["unlock"], stdin: nul("not-it"))
        #expect(wrong.status == 4, "\(wrong)")
        #expect(try sandbox.run(["show-keychain-info", "--locked-status"]).status == 36)
        let right = try runner.run(helper, ["unlock"], stdin: nul("old-pass"))
        #expect(right.status == 0 && right.stderr.contains("unlocked"), "\(right)")

        let wrongOld = try runner.run(helper, ["change-password"], stdin: nul("not-it", "new-pass"))
        #expect(wrongOld.status == 4, "\(wrongOld)")
        let changed = try runner.run(helper, ["change-password"], stdin: nul("old-pass", "new-pass"))
        #expect(changed.status == 0, "\(changed)")
        #expect(try sandbox.run(["lock-keychain"]).status == 0)
        #expect(try sandbox.run(["unlock-keychain", "--password-fd", "-"], stdin: "old-pass\n").status == 51)
        #expect(try sandbox.run(["unlock-keychain", "--password-fd", "-"], stdin: "new-pass\n").status == 0)
        for result in [wrong, right, wrongOld, changed] {
            #expect(!result.stderr.contains("old-pass") && !result.stderr.contains("new-pass") && !result.stderr.contains("not-it"))
        }
    }

    @Test("Without the kernel keyring an unlock would end with the helper: it says so (exit 5) and changes nothing")
    func noKernelKeyring() throws {
        try makeKeychain(password: "old-pass")
        let off = ["SWIFT_KEYCHAIN_NO_KERNEL_KEYRING": "1"]
        let unlock = try runner.run(helper, ["unlock"], stdin: nul("old-pass"), environment: off)
        #expect(unlock.status == 5 && unlock.stderr.contains("stays locked"), "\(unlock)")
        #expect(try sandbox.run(["show-keychain-info", "--locked-status"]).status == 36)
    }

    @Test("A keychain without a password is left without one, whatever the login password")
    func passwordlessKeychain() throws {
        try makeKeychain(password: nil)
        let unlock = try runner.run(helper, ["unlock", "--create"], stdin: nul("pw"))
        #expect(unlock.status == 3, "\(unlock)")
        let change = try runner.run(helper, ["change-password"], stdin: nul("pw", "pw2"))
        #expect(change.status == 3, "\(change)")
        let info = try sandbox.run(["show-keychain-info"])
        #expect(info.stdout.contains("never locks"), "\(info)")
    }

    /// One malformed standard input; nil is a closed one.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let input: Data?
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "closed standard input", input: nil),
        Malformed(name: "empty input", input: Data()),
        Malformed(name: "an empty password", input: Data([0])),
        Malformed(name: "no NUL at the end", input: Data("old-pass".utf8)),
        Malformed(name: "a password over 16 KiB", input: Data(repeating: 0x61, count: 16 * 1024 + 1) + Data([0])),
        Malformed(name: "bytes that are not UTF-8", input: Data([0xff, 0xfe, 0x80, 0])),
        Malformed(name: "more than one password", input: Data("old-pass\0extra\0".utf8)),
        Malformed(name: "binary junk", input: Data((0..<2048).map { UInt8(($0 * 37 + 11) % 256) })),
    ]

    @Test("Malformed input is refused (exit 2) before the keychain is touched", arguments: malformed)
    func malformedInput(_ case: Malformed) throws {
        let name = `case`.name, input = `case`.input
        try makeKeychain(password: "old-pass")
        let before = try Data(contentsOf: sandbox.defaultKeychain)
        let result = try runner.run(helper, ["unlock"], stdin: input)
        #expect(result.status == 2, "\(name): \(result)")
        #expect(result.stderr.hasPrefix("keychain-pam-helper: ") && result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(!result.stderr.contains("old-pass") && !result.stderr.contains("aaaa"))
        #expect(try Data(contentsOf: sandbox.defaultKeychain) == before)
        #expect(try sandbox.run(["show-keychain-info", "--locked-status"]).status == 36)
    }

    @Test("The helper is not dumpable, and reads the password into locked memory, before it touches anything",
          .enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")),
          .enabled(if: CLIHardeningTests.mlockTakesEffect, "mlock locks nothing here (a sanitizer's runtime replaces it)"))
    func hardened() throws {
        let input = Pipe()
        let process = Process()
        if geteuid() == 0 {
            // As another user, so that only a non-dumpable process has /proc files of root's.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", helper.path, "unlock"]
        } else {
            process.executableURL = helper
            process.arguments = ["unlock"]
        }
        process.environment = sandbox.environment
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            _ = process.waitForExit()
        }
        let pid = process.processIdentifier
        func lockedKiB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        // setpriv execs the helper in place; it waits for the password with its buffer locked.
        let start = Date()
        while lockedKiB() < 16 && Date().timeIntervalSince(start) < 30 { usleep(20_000) }
        #expect(lockedKiB() >= 16, "the password buffer is locked while it is read")
        var info = stat()
        try #require(stat("/proc/\(pid)/status", &info) == 0)
        if geteuid() == 0 {
            #expect(info.st_uid == 0, "/proc/\(pid)/status belongs to uid \(info.st_uid): the helper is dumpable")
        }
    }

    @Test("Unknown requests are refused with the usage line", arguments: [[], ["unlock", "--bogus"], ["lock"], ["change-password", "--create"]])
    func unknownRequest(_ arguments: [String]) throws {
        let result = try runner.run(helper, arguments, stdin: nul("a", "b"))
        #expect(result.status == 2 && result.stderr.contains("usage:"), "\(result)")
    }
}
