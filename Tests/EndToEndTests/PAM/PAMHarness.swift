import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What the PAM tests need from the machine: root (to add users and run PAM's auth for them),
/// pamtester, keyctl (keyutils), setpriv, useradd/chpasswd/userdel, and libpam's headers with a C
/// compiler to build the module. CI installs them (scripts/install-system-packages.sh) and runs as
/// root; there a missing one fails the tests instead of skipping them.
enum PAMEnvironment {
    static let tools = ["/usr/bin/pamtester", "/usr/bin/keyctl", "/usr/bin/setpriv", "/usr/sbin/useradd",
                        "/usr/sbin/userdel", "/usr/sbin/chpasswd", "/usr/bin/unshare", "/usr/bin/cc"]

    /// Why the tests cannot run here, or nil when they can.
    static let missing: String? = {
        if geteuid() != 0 { return "not root: the PAM tests add a user and write /etc/pam.d" }
        if let tool = tools.first(where: { !FileManager.default.isExecutableFile(atPath: $0) }) {
            return "\(tool) is missing (scripts/install-system-packages.sh installs it)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/include/security/pam_modules.h") {
            return "libpam's headers are missing (libpam0g-dev)"
        }
        // Each login runs in a session keyring of its own, and the unlock lives in the kernel keyring.
        if let probe = try? run("/usr/bin/keyctl", ["session", "-", "/bin/true"], check: false), probe.status != 0 {
            return "the kernel keyring is not available here (keyctl session: \(probe.stderr))"
        }
        let unix = ["/lib/x86_64-linux-gnu/security", "/usr/lib/x86_64-linux-gnu/security", "/lib/aarch64-linux-gnu/security",
                    "/usr/lib/aarch64-linux-gnu/security", "/lib/security", "/usr/lib/security"]
        if !unix.contains(where: { FileManager.default.fileExists(atPath: $0 + "/pam_unix.so") }) {
            return "pam_unix.so is missing"
        }
        return nil
    }()

    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Enabled when everything is here, and always in CI (where ``require()`` then fails).
    static let enabled = missing == nil || inCI

    static func require() throws {
        if let missing { Issue.record("the PAM tests cannot run: \(missing)") }
        try #require(missing == nil)
    }

    /// Runs a program as root, with its output captured; fails the test if it fails and `check`.
    @discardableResult
    static func run(_ path: String, _ arguments: [String], stdin: String? = nil, check: Bool = true) throws -> CLIResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kcpam-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let inURL = folder.appendingPathComponent("in"), outURL = folder.appendingPathComponent("out"),
            errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let handles = try ProcessHandles(input: inURL, output: outURL, errors: errURL)
        defer { handles.close() }
        handles.attach(to: process)
        try process.run()
        let exit = process.waitForExit()
        let result = CLIResult(status: exit.terminationStatus, stdoutData: (try? Data(contentsOf: outURL)) ?? Data(),
                               stderrData: (try? Data(contentsOf: errURL)) ?? Data())
        if check { try #require(result.status == 0, "\(path) \(arguments.joined(separator: " ")) failed: \(result)") }
        return result
    }

    static let packageRoot = ProofSupport.packageRoot

    /// What the PAM tests build for themselves: in the package's build folder, so that it needs no
    /// cleaning up; each file is written under a temporary name and renamed, so runs side by side
    /// never see half a file.
    static let buildFolder = packageRoot.appendingPathComponent(".build/pam-tests")

    /// The built keychain-pam-helper as the module's default helper: a copy of mode 0711, as
    /// scripts/install.sh installs it (the module refuses a helper others can read).
    static let helper: Result<URL, ModuleBuildFailure> = {
        do {
            let built = try HelperRunner.binary("keychain-pam-helper")
            let output = buildFolder.appendingPathComponent("keychain-pam-helper")
            try FileManager.default.createDirectory(at: buildFolder, withIntermediateDirectories: true)
            let temporary = output.path + ".tmp.\(getpid())"
            let result = try run("/usr/bin/install", ["-m", "0711", built.path, temporary], check: false)
            guard result.status == 0, rename(temporary, output.path) == 0 else { return .failure(ModuleBuildFailure(reason: "\(result)")) }
            return .success(output)
        } catch {
            return .failure(ModuleBuildFailure(reason: "\(error)"))
        }
    }()

    /// The module, built once per test run by the script users run, with ``helper`` as its
    /// default helper.
    static let module: Result<URL, ModuleBuildFailure> = {
        do {
            let helper = try Self.helper.get()
            let output = buildFolder.appendingPathComponent("pam_keychain.so")
            let script = packageRoot.appendingPathComponent("scripts/build-pam-module.sh")
            let result = try run(script.path, ["--helper", helper.path, "--output", output.path], check: false)
            guard result.status == 0 else { return .failure(ModuleBuildFailure(reason: "\(result)")) }
            return .success(output)
        } catch {
            return .failure(ModuleBuildFailure(reason: "\(error)"))
        }
    }()

    /// Tests/Fixtures/pam-helper-relay.c, built once per test run (see ``PAMTestBed/writeHelper(_:_:)``).
    static let relay = compiledFixture("pam-helper-relay")
    /// Tests/Fixtures/pam-stdin-thief.c, built once per test run: the attacker of PAMHelperExecRaceTests.swift.
    static let thief = compiledFixture("pam-stdin-thief")

    /// A C program of Tests/Fixtures built with the system's cc into ``buildFolder``, readable and
    /// runnable by everyone.
    private static func compiledFixture(_ name: String) -> Result<URL, ModuleBuildFailure> {
        do {
            let source = packageRoot.appendingPathComponent("Tests/Fixtures/\(name).c")
            let output = buildFolder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: buildFolder, withIntermediateDirectories: true)
            let temporary = output.path + ".tmp.\(getpid())"
            let result = try run("/usr/bin/cc", ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", temporary, source.path],
                                 check: false)
            guard result.status == 0, chmod(temporary, 0o755) == 0, rename(temporary, output.path) == 0 else {
                return .failure(ModuleBuildFailure(reason: "cc \(name).c: \(result)"))
            }
            return .success(output)
        } catch {
            return .failure(ModuleBuildFailure(reason: "\(error)"))
        }
    }

    struct ModuleBuildFailure: Error { let reason: String }
}

/// A datagram socket standing in for syslog's /dev/log, so the tests read what the module logs.
///
/// Where /dev/log does not exist (a container, this CI's machines) it is bound there for the
/// test's lifetime; where a syslog daemon owns it, the login sessions run in a private mount
/// namespace with this socket mounted over /dev/log (``PAMTestBed/runSession``).
final class SyslogSink: @unchecked Sendable {
    let path: String
    let boundAtDevLog: Bool
    private let fd: Int32
    /// Reads every datagram as it arrives. A datagram socket's queue is short (10 messages by
    /// default, /proc/sys/net/unix/max_dgram_qlen): a sink read only when a test asks would let
    /// useradd, pam_unix and the module fill it, and the next syslog(3) call — inside pamtester —
    /// would then block for ever.
    private let reader: any DispatchSourceRead
    private let queue = DispatchQueue(label: "pam-tests.syslog")
    private var received: [String] = []

    init(folder: URL) throws {
        boundAtDevLog = !FileManager.default.fileExists(atPath: "/dev/log")
            && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/dev/log")) == nil
        path = boundAtDevLog ? "/dev/log" : folder.appendingPathComponent("log.sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        try #require(fd >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = self.path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            for (index, byte) in bytes.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if bound != 0 { close(fd) }
        try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
        chmod(path, 0o666)
        self.fd = fd
        reader = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        reader.setEventHandler { [unowned self] in self.receiveAvailable() }
        reader.setCancelHandler { close(fd) }
        reader.resume()
    }

    deinit {
        reader.cancel()
        unlink(path)
    }

    /// Runs on `queue`: takes every datagram waiting on the socket.
    private func receiveAvailable() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let got = recv(fd, &buffer, buffer.count, 0)
            if got <= 0 { break }
            received.append(String(decoding: buffer[0..<got], as: UTF8.self))
        }
    }

    /// Every message received since the last call.
    func drain() -> [String] {
        queue.sync {
            receiveAvailable()
            defer { received.removeAll() }
            return received
        }
    }
}

/// One program a login session runs: as root (pamtester) or as the user, with standard input
/// from a file of root's.
struct SessionStep {
    var arguments: [String]
    var stdin: String = ""
    var asUser = false
}

/// A test user, a PAM service file that stacks pam_unix and the module, and a way to run login
/// sessions (pamtester, then the user's own programs) in a session keyring of their own.
final class PAMTestBed {
    let user: String
    let password: String
    let uid: UInt32
    let gid: UInt32
    let home: URL
    let service: String
    /// Root-only: passwords fed to pamtester, the steps' output.
    let privateFolder: URL
    /// Readable by the user: helper stand-ins written by the tests.
    let publicFolder: URL
    let module: URL
    let keychainctl: URL
    let log: SyslogSink
    private let folder: URL

    var serviceFile: String { "/etc/pam.d/\(service)" }
    var loginKeychain: URL { home.appendingPathComponent(".local/share/keychains/login.keychain-db") }

    /// - Parameters:
    ///   - options: the module's options on each of its lines.
    ///   - withHome: false gives the user a home folder that does not exist.
    init(options: String = "", withHome: Bool = true) throws {
        try PAMEnvironment.require()
        module = try PAMEnvironment.module.get()
        keychainctl = try CLIBinary.url()
        let tag = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(10)
        user = "kcpam\(tag)"
        service = "swift-keychain-test-\(tag)"
        // Different enough from one another that pam_unix accepts each as a new password.
        password = "Login-\(UUID().uuidString.prefix(13))"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kcpam-\(tag)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        privateFolder = folder.appendingPathComponent("private")
        publicFolder = folder.appendingPathComponent("public")
        try FileManager.default.createDirectory(at: privateFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(at: publicFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        home = folder.appendingPathComponent(withHome ? "home" : "no-such-home")
        log = try SyslogSink(folder: privateFolder)
        try PAMEnvironment.run("/usr/sbin/useradd", (withHome ? ["--create-home"] : ["--no-create-home"])
            + ["--home-dir", home.path, "--shell", "/bin/sh", "--user-group", user])
        try PAMEnvironment.run("/usr/sbin/chpasswd", [], stdin: "\(user):\(password)\n")
        uid = try Self.id("-u", user)
        gid = try Self.id("-g", user)
        try writeService(options: options)
    }

    deinit {
        // The user's keys in the kernel (their user keyring outlives the account otherwise).
        _ = try? PAMEnvironment.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups",
                                                          "/usr/bin/keyctl", "clear", "@u"], check: false)
        // --force: even if a process of the user outlived a failed test, the account goes.
        _ = try? PAMEnvironment.run("/usr/sbin/userdel", ["--force", "--remove", user], check: false)
        try? FileManager.default.removeItem(atPath: serviceFile)
        try? FileManager.default.removeItem(at: folder)
    }

    private static func id(_ flag: String, _ user: String) throws -> UInt32 {
        let result = try PAMEnvironment.run("/usr/bin/id", [flag, user])
        return try #require(UInt32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// The service: pam_unix decides, pam_keychain follows it on every line, as docs/pam.md says.
    /// `auth` replaces the module that reads the password; `keyinit` puts pam_keyinit (a session
    /// keyring of the login's own) before the module's session line, as Debian's login has it.
    func writeService(options: String, auth: String = "pam_unix.so", keyinit: Bool = false) throws {
        let line = "\(module.path) \(options)"
        let text = """
            auth     required  \(auth)
            auth     optional  \(line)
            account  required  pam_unix.so
            session  required  pam_permit.so
            \(keyinit ? "session  optional  pam_keyinit.so force revoke" : "")
            session  optional  \(line)
            password required  pam_unix.so
            password optional  \(line)

            """
        try text.write(toFile: serviceFile, atomically: true, encoding: .utf8)
    }

    /// pamtester for this user and service.
    func pamtester(_ operations: [String], stdin: String) -> SessionStep {
        SessionStep(arguments: ["/usr/bin/pamtester", "-v", service, user] + operations, stdin: stdin)
    }

    /// keychainctl, run as the user.
    func keychainctl(_ arguments: [String], stdin: String = "") -> SessionStep {
        SessionStep(arguments: [keychainctl.path] + arguments, stdin: stdin, asUser: true)
    }

    /// Runs `steps` one after another in one new session keyring (the kernel's notion of a login
    /// session, which pam_keyinit gives a real login), owned by the user unless
    /// `sessionKeyringOwnedByUser` is false. Each step's result, in order.
    func runSession(_ steps: [SessionStep], sessionKeyringOwnedByUser: Bool = true) throws -> [CLIResult] {
        let id = UUID().uuidString
        var script = "set -u\ncd /\n"
        if sessionKeyringOwnedByUser { script += "/usr/bin/keyctl chown @s \(uid) >/dev/null || exit 90\n" }
        for (index, step) in steps.enumerated() {
            let stem = privateFolder.appendingPathComponent("\(id)-\(index)").path
            try step.stdin.write(toFile: "\(stem).in", atomically: true, encoding: .utf8)
            var command = step.arguments
            if step.asUser {
                command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups",
                           "/usr/bin/env", "-i", "HOME=\(home.path)", "USER=\(user)", "LOGNAME=\(user)",
                           "PATH=/usr/bin:/bin", "LANG=C.UTF-8"] + command
            }
            script += command.map(Self.quote).joined(separator: " ")
                + " <\(Self.quote(stem + ".in")) >\(Self.quote(stem + ".out")) 2>\(Self.quote(stem + ".err"))\n"
            script += "echo $? >\(Self.quote(stem + ".status"))\n"
        }
        let scriptURL = privateFolder.appendingPathComponent("\(id).sh")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let inSession = ["/usr/bin/keyctl", "session", "-", "/bin/sh", scriptURL.path]
        if log.boundAtDevLog {
            try PAMEnvironment.run(inSession[0], Array(inSession.dropFirst()))
        } else {
            let mount = "/bin/mount --bind \(Self.quote(log.path)) /dev/log && exec " + inSession.map(Self.quote).joined(separator: " ")
            try PAMEnvironment.run("/usr/bin/unshare", ["--mount", "/bin/sh", "-c", mount])
        }
        return try steps.indices.map { index in
            let stem = privateFolder.appendingPathComponent("\(id)-\(index)").path
            let status = try String(contentsOfFile: stem + ".status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return CLIResult(status: try #require(Int32(status)),
                             stdoutData: (try? Data(contentsOf: URL(fileURLWithPath: stem + ".out"))) ?? Data(),
                             stderrData: (try? Data(contentsOf: URL(fileURLWithPath: stem + ".err"))) ?? Data())
        }
    }

    /// Gives the user a login keychain with `keychainPassword` (the login password unless given),
    /// holding one item, then locks it and empties the user's keyring, as after a reboot.
    func createLoginKeychain(keychainPassword: String? = nil) throws {
        let results = try runSession([
            keychainctl(["create-keychain", "-P", "login"], stdin: (keychainPassword ?? password) + "\n"),
            keychainctl(["add-generic-password", "-a", "alice", "-s", "pam-test", "-w"], stdin: "item-secret\n"),
            try worker(["add", "late", "late-secret", "ck"]),
            keychainctl(["lock-keychain"]),
            SessionStep(arguments: ["/usr/bin/keyctl", "clear", "@u"], asUser: true),
        ])
        for result in results { try #require(result.status == 0, "setting up the login keychain: \(result)") }
        try #require(FileManager.default.fileExists(atPath: loginKeychain.path))
    }

    /// keychain-test-worker on the login keychain, run as the user (items of any accessibility).
    func worker(_ arguments: [String]) throws -> SessionStep {
        let worker = try HelperRunner.binary("keychain-test-worker")
        return SessionStep(arguments: [worker.path, arguments[0], loginKeychain.path] + arguments.dropFirst(), asUser: true)
    }

    /// Writes an executable script for the user to run (root-owned, 0755), for PAM modules other
    /// than ours (pam_exec).
    func writeScript(_ name: String, _ body: String) throws -> URL {
        let url = publicFolder.appendingPathComponent(name)
        try ("#!/bin/sh\n" + body).write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url
    }

    /// A stand-in helper for `helper=`: the module runs only a root-owned file no one else can
    /// read, which a script cannot be, so the file returned is a copy of the relay
    /// (Tests/Fixtures/pam-helper-relay.c, mode 0711), which runs `script`, written beside it as
    /// `NAME.target` (0755, `interpreter` its first line), in the same process.
    func writeHelper(_ name: String, _ script: String, interpreter: String = "/bin/sh", in folder: URL? = nil) throws -> URL {
        let url = (folder ?? publicFolder).appendingPathComponent(name)
        try PAMEnvironment.run("/usr/bin/install", ["-m", "0711", try PAMEnvironment.relay.get().path, url.path])
        let target = Self.target(of: url)
        try ("#!\(interpreter)\n" + script).write(to: target, atomically: true, encoding: .utf8)
        chmod(target.path, 0o755)
        return url
    }

    /// What the relay at `helper` runs.
    static func target(of helper: URL) -> URL {
        helper.deletingLastPathComponent().appendingPathComponent(helper.lastPathComponent + ".target")
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
