import Foundation
import KeychainCallerIdentity
import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Callers on a Unix socket, identified from SO_PEERCRED and SO_PEERPIDFD and /proc.
@Suite struct SocketCallerTests {
    @Test func aHostProgramIsIdentifiedByTheKernel() throws {
        let folder = try TemporaryFolder()
        let listener = try UnixListener(path: folder.path + "/keychaind.socket")
        let client = try Callers.hostClient(socket: listener.path)
        defer { Callers.stop(client) }
        let connection = try listener.accept()
        defer { close(connection) }

        let caller = try CallerIdentityResolver.resolve(socket: connection)
        #expect(caller.processID == client.processIdentifier)
        #expect(caller.userID == getuid())
        #expect(caller.groupID == getgid())
        #expect(caller.process.isRunning)
        #expect(caller.flatpak == nil)
        #expect(caller.snap == nil)
        #expect(caller.sharesRoot)
        #expect(!caller.isSandboxed)
        let python = Callers.pythonExecutable
        #expect(caller.executable?.path == python)
        #expect(caller.executable?.sha256 == (try Callers.sha256sum(python)))
        // `python3 -c code`: no script, so no script rule could match it.
        #expect(caller.script == nil)

        // A host program no rule names keeps the shared group.
        let granted = AccessPolicy(rules: []).entitlements(for: caller)
        #expect(granted.reason == .hostDefault)
        #expect(granted.keychainAccessGroups == [ClientIdentity.sharedGroup])
        #expect(granted.clientIdentity == ClientIdentity.unconfigured)
    }

    /// Hashing reads the whole executable, most of a resolution's cost: it is done only for an
    /// executable a rule pins by SHA-256 (``AccessPolicy/executableHashing``), and a rule that
    /// pins another program's digest does not make this one's be read.
    @Test func theExecutableIsHashedOnlyWhenARulePinsIt() throws {
        let sleep = URL(fileURLWithPath: "/usr/bin/sleep").resolvingSymlinksInPath().path
        let digest = try Callers.sha256sum(sleep)
        let pinning = try AccessRule.parse("executable = \(sleep)\nexecutable-sha256 = \(digest)\nkeychain-access-groups = team.tools\n",
                                           source: "sleep.conf")
        let other = try AccessRule.parse("executable = /usr/bin/true\nexecutable-sha256 = \(String(repeating: "0", count: 64))\n"
                                         + "keychain-access-groups = team.other\n", source: "true.conf")
        let process = try Callers.start(sleep, ["30"])
        defer { Callers.stop(process) }
        Callers.waitUntilRunning(process, sleep)
        for (rules, hashed) in [([other], false), ([other, pinning], true)] {
            let policy = AccessPolicy(rules: rules)
            let caller = try CallerIdentityResolver.resolve(busProcessID: UInt32(process.processIdentifier), userID: getuid(),
                                                            hashing: policy.executableHashing)
            #expect(caller.executable?.path == sleep)
            #expect(caller.executable?.sha256 == (hashed ? digest : nil))
            #expect(policy.entitlements(for: caller).keychainAccessGroups == (hashed ? ["team.tools"] : [ClientIdentity.sharedGroup]))
        }
    }

    /// The attack: a client connects and exits, and another process gets its process id before
    /// keychaind reads /proc. SO_PEERPIDFD hands out a pidfd even for the reaped client (kernel
    /// 6.18); without the liveness check the resolver would describe the newcomer. Where this
    /// process may steer the kernel's next process id (root: ns_last_pid), the newcomer is made
    /// to get exactly that id; elsewhere the id stays free and only the plain exit is checked.
    @Test func aPeerThatHasExitedIsRefusedEvenWhenItsProcessIDIsReused() throws {
        let folder = try TemporaryFolder()
        let listener = try UnixListener(path: folder.path + "/keychaind.socket")
        let client = try Callers.hostClient(socket: listener.path, stay: false)
        let exit = client.waitForExit()
        #expect(exit.terminationStatus == 0, "the client could not connect")
        let connection = try listener.accept()
        defer { close(connection) }

        let newcomer = Self.start("/usr/bin/sleep", reusing: client.processIdentifier)
        defer { newcomer.map(Callers.stop) }
        if let newcomer {
            Callers.waitUntilRunning(newcomer, "/sleep")
            #expect(FileManager.default.fileExists(atPath: "/proc/\(client.processIdentifier)/exe"))
        }
        #expect(throws: CallerIdentityError.callerExited(processID: client.processIdentifier)) {
            try CallerIdentityResolver.resolve(socket: connection)
        }
    }

    /// Starts `executable` as process `pid`, by setting the kernel's last given id just below it;
    /// nil where that is not allowed. Another process of the machine may take the id first, so
    /// it is tried a few times.
    static func start(_ executable: String, reusing pid: Int32) -> Process? {
        for _ in 0..<20 {
            guard (try? String(pid - 1).write(toFile: "/proc/sys/kernel/ns_last_pid", atomically: false, encoding: .utf8)) != nil,
                  let process = try? Callers.start(executable, ["30"]) else { return nil }
            if process.processIdentifier == pid { return process }
            Callers.stop(process)
        }
        return nil
    }

    /// A process that has gone away is not pinned by its exit status: the pinned object says so.
    @Test func aPinnedCallerThatExitsLaterIsSeenToBeGone() throws {
        let folder = try TemporaryFolder()
        let listener = try UnixListener(path: folder.path + "/keychaind.socket")
        let client = try Callers.hostClient(socket: listener.path)
        let connection = try listener.accept()
        defer { close(connection) }
        let caller = try CallerIdentityResolver.resolve(socket: connection)
        #expect(caller.process.isRunning)
        Callers.stop(client)
        #expect(!caller.process.isRunning)
        #expect(caller.process.currentProcessID == nil)
    }

    /// A command line too long for the bound and an executable path that is not UTF-8: the
    /// identity is still resolved, with those fields absent.
    @Test func oddProcContentsGiveAbsentFieldsNotFailures() throws {
        let folder = try TemporaryFolder()
        // A copy of sleep whose name is not UTF-8, started through a link with a plain name.
        let odd = folder.path + "/tool-\u{1}"
        var oddBytes = Array(odd.utf8)
        oddBytes[oddBytes.count - 1] = 0xFF
        let source = try Data(contentsOf: URL(fileURLWithPath: "/usr/bin/sleep"))
        let descriptor = (oddBytes + [0]).withUnsafeBufferPointer { path in
            path.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o755) }
        }
        #expect(descriptor >= 0)
        _ = source.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let link = folder.path + "/run"
        let linked = (oddBytes + [0]).withUnsafeBufferPointer { target in
            target.baseAddress!.withMemoryRebound(to: CChar.self, capacity: target.count) { symlink($0, link) }
        }
        #expect(linked == 0)
        let sleeper = try Callers.start(link, ["30"])
        defer { Callers.stop(sleeper) }
        Callers.waitUntilRunning(sleeper, "/tool-")
        let caller = try CallerIdentityResolver.resolve(busProcessID: UInt32(sleeper.processIdentifier), userID: getuid())
        #expect(caller.executable != nil)
        #expect(caller.executable?.path == nil)
        #expect(caller.executable?.sha256 == (try Callers.sha256sum("/usr/bin/sleep")))

        // An interpreter whose command line is far beyond the bound: no script, no failure.
        // (One argument may hold at most 128 KiB; many of them may hold more.)
        let huge = Array(repeating: String(repeating: "x", count: 10_000), count: 10)
        let python = try Callers.start(Callers.python, ["-c", "import time; time.sleep(30)"] + huge)
        defer { Callers.stop(python) }
        Callers.waitUntilRunning(python, Callers.pythonExecutable)
        let interpreter = try CallerIdentityResolver.resolve(busProcessID: UInt32(python.processIdentifier), userID: getuid())
        #expect(interpreter.script == nil)
        #expect(interpreter.executable?.sha256 != nil)
    }
}
