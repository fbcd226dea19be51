import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// keychainctl protects the passwords it handles: no core dumps, password reads in locked
/// memory, no password in `-v` output or parser errors, and a warning when the process listing
/// can see one.
@Suite("keychainctl hardening")
struct CLIHardeningTests {
    static let warning = "warning: a password on the command line can be seen by other users of this machine (ps)"

    /// keychainctl started with standard input on a pipe the test holds open, so that it waits;
    /// as root it runs as `nobody`, because the kernel shows a process is not dumpable by making
    /// its /proc files root's, which says nothing about a process that is root already.
    final class WaitingProcess {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let home: URL

        init(_ arguments: [String]) throws {
            home = FileManager.default.temporaryDirectory
                .appendingPathComponent("keychainctl-waiting-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let binary = try CLIBinary.url().path
            if geteuid() == 0 {
                try #require(chown(home.path, 65534, 65534) == 0)
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: binary)
                process.arguments = arguments
            }
            process.environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("c").path,
                                   "XDG_DATA_HOME": home.appendingPathComponent("d").path, "PATH": "/usr/bin:/bin"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }

        /// A line of /proc/<pid>/status or /proc/<pid>/limits starting with `prefix`.
        func procLine(_ file: String, _ prefix: String) -> String? {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else { return nil }
            return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
        }

        /// Waits (up to 10 s) until `condition` holds.
        func waitUntil(_ condition: () -> Bool) -> Bool {
            for _ in 0..<200 {
                if condition() { return true }
                usleep(50_000)
            }
            return condition()
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: home)
        }
    }

    @Test("keychainctl is not dumpable and its core size limit is 0, from before it reads anything",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") || geteuid() != 0))
    func notDumpable() throws {
        let waiting = try WaitingProcess(["-i"])
        defer { waiting.finish() }
        // One command answered proves startup is over: it is now waiting for the next line.
        waiting.input.fileHandleForWriting.write(Data("list-keychains\n".utf8))
        var echoed = Data()
        while !String(decoding: echoed, as: UTF8.self).contains("\n") {
            let chunk = waiting.output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            echoed.append(chunk)
        }
        var info = stat()
        try #require(stat("/proc/\(waiting.pid)/status", &info) == 0)
        // A dumpable process of uid 65534 (or of this user) owns its /proc files.
        #expect(info.st_uid == 0, "/proc/\(waiting.pid)/status belongs to uid \(info.st_uid): the process is dumpable")
        let limit = waiting.procLine("limits", "Max core file size")
        #expect(limit?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(4).prefix(2) == ["0", "0"], "\(limit ?? "no limits")")
    }

    /// Whether mlock(2) locks anything in this process, and so in the keychainctl built with it:
    /// the sanitizers' runtimes replace it with a call that locks nothing.
    static let mlockTakesEffect: Bool = {
        let size = Int(getpagesize())
        let page = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: size)
        defer { page.deallocate() }
        guard mlock(page.baseAddress, size) == 0 else { return false }
        defer { munlock(page.baseAddress, size) }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmLck:") } ?? ""
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) > 0
    }()

    @Test("A password read from standard input lands in locked memory (VmLck) while it is read",
          .enabled(if: mlockTakesEffect, "mlock locks nothing here (a sanitizer's runtime replaces it)"))
    func passwordReadIsLocked() throws {
        let waiting = try WaitingProcess(["add-generic-password", "-a", "a", "-s", "s", "-w"])
        defer { waiting.finish() }
        // The buffer is locked before the first byte is read, so the waiting process shows it.
        let locked = waiting.waitUntil {
            guard let line = waiting.procLine("status", "VmLck:") else { return false }
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) >= 16
        }
        #expect(locked, "\(waiting.procLine("status", "VmLck:") ?? "no VmLck line")")
    }

    @Test("-v echoes the command with every password replaced", arguments: [
        ["add-generic-password", "-a", "acct", "-s", "svc", "-w", "Pw-Secret-17"],
        ["add-generic-password", "-a", "acct", "-s", "svc", "-p", "Pw-Secret-17"],
        ["add-generic-password", "-a", "acct", "-s", "svc", "--password=Pw-Secret-17"],
        ["add-generic-password", "-a", "acct", "-s", "svc", "-wPw-Secret-17"],
        ["add-internet-password", "-a", "acct", "-s", "example.com", "-p", "/path", "-w", "Pw-Secret-17"],
        ["unlock-keychain", "-p", "Pw-Secret-17"],
        ["set-keychain-password", "-o", "Pw-Secret-17", "-p", "Pw-Secret-17-new"],
        ["export", "-o", "backup.kcb", "-P", "Pw-Secret-17"],
    ])
    func verboseHidesPasswords(arguments: [String]) throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-v"] + arguments)
        #expect(result.stderr.contains("<password>"), "\(result)")
        #expect(!result.stderr.contains("Pw-Secret-17") && !result.stdout.contains("Pw-Secret-17"), "\(result)")
    }

    @Test("-v in interactive mode hides the password of each command it echoes")
    func verboseInteractive() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["-v", "-i"], stdin: "add-generic-password -a acct -s svc -w Pw-Secret-17\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("\"-w\" \"<password>\""), "\(result)")
        #expect(!result.stderr.contains("Pw-Secret-17"), "\(result)")
    }

    @Test("A password given as an argument prints the warning on standard error, once, and the command still runs",
          arguments: [["-w", "Pw-Secret-17"], ["-p", "Pw-Secret-17"], ["--password=Pw-Secret-17"]])
    func warningForArgumentPassword(flag: [String]) throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-a", "acct", "-s", "svc"] + flag)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.components(separatedBy: Self.warning).count == 2, "\(result)")
        #expect(!result.stderr.contains("Pw-Secret-17"))
        #expect(result.stdout.isEmpty)
    }

    @Test("Other password flags warn too: unlock-keychain -p, set-keychain-password -o/-p, import/export -P")
    func warningForOtherCommands() throws {
        let sandbox = try CLISandbox()
        let path = sandbox.path("w.keychain-db")
        #expect(try sandbox.run(["create-keychain", "-p", "Pw-Secret-17", path]).stderr.contains(Self.warning))
        #expect(try sandbox.run(["unlock-keychain", "-p", "Pw-Secret-17", path]).stderr.contains(Self.warning))
        #expect(try sandbox.run(["set-keychain-password", "-o", "Pw-Secret-17", "-p", "Pw-18", path]).stderr.contains(Self.warning))
        #expect(try sandbox.run(["export", "-k", path, "-o", sandbox.path("b.kcb"), "-P", "Pw-19"]).stderr.contains(Self.warning))
    }

    @Test("No warning when the password is read (piped to a trailing -w, -w -), in interactive mode, or with no password at all")
    func noWarningWhenRead() throws {
        let sandbox = try CLISandbox()
        for arguments in [["add-generic-password", "-a", "acct", "-s", "svc", "-w"],
                          ["add-generic-password", "-U", "-a", "acct", "-s", "svc", "-w", "-"]] {
            let result = try sandbox.run(arguments, stdin: "Pw-Secret-17\n")
            #expect(result.status == 0, "\(result)")
            #expect(!result.stderr.contains("warning"), "\(result)")
        }
        let interactive = try sandbox.run(["-i"], stdin: "add-generic-password -U -a acct -s svc -w Pw-Secret-17\n")
        #expect(interactive.status == 0 && !interactive.stderr.contains("warning"), "\(interactive)")
        // `-a -w`: the account is named "-w", and there is no password on the line.
        let account = try sandbox.run(["add-generic-password", "-s", "svc", "-a", "-w"])
        #expect(!account.stderr.contains("warning"), "\(account)")
        #expect(try sandbox.run(["find-generic-password", "-a", "acct", "-s", "svc", "-w"]).stdout == "Pw-Secret-17\n")
    }

    @Test("No warning when the password is typed at a terminal prompt", .enabled(if: TmuxTerminal.isAvailable, "tmux is not installed"))
    func noWarningWhenPrompted() throws {
        let sandbox = try CLISandbox()
        let terminal = try TmuxTerminal.start(sandbox: sandbox, command: ["add-generic-password", "-a", "acct", "-s", "svc", "-w"])
        defer { terminal.close() }
        try terminal.waitFor("password data for new item: ")
        terminal.type("Pw-Secret-17")
        try terminal.waitFor("retype password for new item: ")
        terminal.type("Pw-Secret-17")
        let screen = try terminal.waitFor("EXIT=0")
        #expect(!screen.contains("warning"), "\(screen)")
        #expect(!screen.contains("Pw-Secret-17"))
    }

    @Test("A parser error about an argument holding a password does not repeat the password")
    func parserErrorHidesPassword() throws {
        let sandbox = try CLISandbox()
        let result = try sandbox.run(["add-generic-password", "-a", "acct", "-s", "svc", "-wPw-Secret-17"])
        #expect(result.status == 2, "\(result)")
        #expect(!result.stderr.contains("Pw-Secret-17"), "\(result)")
    }
}
