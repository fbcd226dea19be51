import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one run of a client program left.
struct ClientResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// A private session bus with keychaind serving a private keychain on it, as a user's session
/// would have, and nothing else: no gnome-keyring, no service activation. Clients run by
/// ``run(_:_:stdin:)`` see only this bus and this keychain.
final class DaemonSandbox: @unchecked Sendable {
    // @unchecked: the processes are started in init and only stopped in stop()/deinit.
    let home: URL
    let busAddress: String
    /// Where the bus listens when other users may connect to it (a folder they can reach).
    private let sharedFolder: URL?
    private let bus: Process
    private(set) var daemon: Process?
    private var daemonIsKeychaind = true
    private var daemonLog: URL { home.appendingPathComponent("keychaind.log") }

    /// Which program serves the Secret Service in a sandbox.
    enum Provider {
        case keychaind
        /// The real gnome-keyring-daemon (secrets component, unlocked), for comparisons.
        case gnomeKeyring
    }

    /// - Parameters:
    ///   - provider: what to start on the bus (nil: nothing yet).
    ///   - serviceDirectory: a folder of D-Bus activation files the bus may start services from.
    ///   - busOpenToEveryUser: the bus lets every user of the machine connect (`<allow user="*"/>`,
    ///     on a socket they can reach), as a carelessly configured bus would; by default only the
    ///     user running the tests may.
    init(_ provider: Provider? = .keychaind, extraEnvironment: [String: String] = [:], serviceDirectory: URL? = nil,
         busOpenToEveryUser: Bool = false) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        sharedFolder = busOpenToEveryUser
            ? FileManager.default.temporaryDirectory.appendingPathComponent("keychaind-bus-\(UUID().uuidString)", isDirectory: true) : nil
        if let sharedFolder {
            try FileManager.default.createDirectory(at: sharedFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        // A bus of our own with no service files, so no other provider can be activated on it.
        let config = home.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(sharedFolder.map { "unix:path=\($0.path)/bus" } ?? "unix:dir=\(home.path)")</listen>
          <auth>EXTERNAL</auth>
        \(serviceDirectory.map { "  <servicedir>\($0.path)</servicedir>" } ?? "")
          <policy context="default">
        \(busOpenToEveryUser ? "    <allow user=\"*\"/>" : "")
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        let addressPipe = Pipe()
        bus.standardOutput = addressPipe
        bus.standardError = FileHandle.nullDevice
        // Services the bus starts inherit this environment: the sandbox's, never the test runner's home.
        bus.environment = Self.baseEnvironment(home)
        try bus.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = addressPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        busAddress = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(!busAddress.isEmpty, "dbus-daemon printed no address")
        switch provider {
        case .keychaind?: try start(extraEnvironment: extraEnvironment)
        case .gnomeKeyring?: try startGnomeKeyring()
        case nil: break
        }
    }

    deinit {
        stop()
        // SIGKILL: the test runner starts children with SIGTERM blocked, and the bus holds nothing.
        if bus.isRunning { kill(bus.processIdentifier, SIGKILL); _ = bus.waitForExit() }
        try? FileManager.default.removeItem(at: home)
        if let sharedFolder { try? FileManager.default.removeItem(at: sharedFolder) }
    }

    /// The environment every program of this sandbox runs with.
    var environment: [String: String] {
        Self.baseEnvironment(home).merging(["DBUS_SESSION_BUS_ADDRESS": busAddress]) { $1 }
    }

    /// This sandbox's keychains folder, where `keychainctl create-keychain NAME` puts NAME and
    /// whose keychains keychaind serves as collections.
    var keychainsFolder: URL {
        var environment = environment
        environment[KeychainPaths.keychainPathVariable] = nil
        return KeychainPaths.defaultKeychain(environment: environment).deletingLastPathComponent()
    }

    private static func baseEnvironment(_ home: URL) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_RUNTIME_DIR": home.path,
            "LANG": "C.UTF-8",
        ]
    }

    /// Starts keychaind and waits until it owns the Secret Service's name.
    func start(arguments: [String] = [], extraEnvironment: [String: String] = [:]) throws {
        daemonIsKeychaind = true
        try launch(try BuiltProduct.url("keychaind"), arguments, environment: environment.merging(extraEnvironment) { $1 })
    }

    /// Starts gnome-keyring-daemon as the provider, unlocked with a throwaway password.
    func startGnomeKeyring() throws {
        daemonIsKeychaind = false
        try launch(URL(fileURLWithPath: "/usr/bin/gnome-keyring-daemon"), ["--foreground", "--unlock", "--components=secrets"],
                   environment: environment, stdin: "sandbox-password")
        // It takes the bus name before its login keyring exists; a client that comes in between
        // finds no default collection and makes one of its own, which behaves differently. Wait
        // until the default alias names a collection, as it does in a real session.
        for _ in 0..<500 {
            let alias = try run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets",
                                                       "org.freedesktop.Secret.Service.ReadAlias", "string:default"])
            if alias.status == 0 && !alias.stdout.contains("object path \"/\"") { return }
            usleep(20_000)
        }
        Issue.record("gnome-keyring never made its default collection:\n\(log)")
    }

    /// Starts keychaind without a session bus in its environment (`--no-secret-service`), and
    /// waits until `socket` (a path in the runtime folder) exists.
    func startWithoutBus(arguments: [String], socket: String) throws {
        daemonIsKeychaind = true
        var environment = environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        try launch(try BuiltProduct.url("keychaind"), arguments, environment: environment) {
            FileManager.default.fileExists(atPath: socket)
        }
    }

    /// Starts keychaind as a service manager does for a `.socket` unit: systemd-socket-activate
    /// listens on `socket` and runs keychaind with `arguments` at the first connection, passing
    /// it the listening socket. Returns once the socket exists (keychaind is not running yet).
    func startOnDemand(arguments: [String], socket: String) throws {
        daemonIsKeychaind = true
        try FileManager.default.createDirectory(atPath: (socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // It passes on only the variables it is told to (as a unit's Environment= does).
        let passed = environment.keys.sorted().map { "--setenv=\($0)" }
        try launch(URL(fileURLWithPath: "/usr/bin/systemd-socket-activate"),
                   ["-l", socket] + passed + [try BuiltProduct.url("keychaind").path] + arguments,
                   environment: environment) {
            FileManager.default.fileExists(atPath: socket)
        }
    }

    private func launch(_ executable: URL, _ arguments: [String], environment: [String: String], stdin: String? = nil,
                        ready: (() throws -> Bool)? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: daemonLog.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: daemonLog)
        process.standardOutput = FileHandle.nullDevice
        if let stdin {
            let input = home.appendingPathComponent("daemon-stdin")
            _ = FileManager.default.createFile(atPath: input.path, contents: Data(stdin.utf8))
            process.standardInput = try FileHandle(forReadingFrom: input)
        }
        try process.run()
        daemon = process
        let isReady = ready ?? { try self.owner(of: "org.freedesktop.secrets") != nil }
        for _ in 0..<500 {
            if try isReady() { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        Issue.record("\(executable.lastPathComponent) did not get ready:\n\(log)")
        throw SandboxError.daemonDidNotStart
    }

    /// Stops the provider and returns its exit status (nil if it was not running). keychaind
    /// gets SIGTERM, and must exit on it within ten seconds; gnome-keyring gets SIGKILL, because
    /// children of the test runner start with SIGTERM blocked and it does not unblock it.
    @discardableResult
    func stop() -> Int32? {
        guard let daemon, daemon.isRunning else { return nil }
        self.daemon = nil
        guard daemonIsKeychaind else {
            kill(daemon.processIdentifier, SIGKILL)
            return daemon.waitForExit().terminationStatus
        }
        kill(daemon.processIdentifier, SIGTERM)
        for _ in 0..<1000 where daemon.isRunning { usleep(10_000) }
        if daemon.isRunning {
            Issue.record("keychaind did not exit within 10 s of SIGTERM:\n\(log)")
            kill(daemon.processIdentifier, SIGKILL)
        }
        return daemon.waitForExit().terminationStatus
    }

    /// What keychaind wrote to standard error.
    var log: String { (try? String(contentsOf: daemonLog, encoding: .utf8)) ?? "" }

    /// The unique name owning `name` on the bus, or nil.
    func owner(of name: String) throws -> String? {
        let result = try run("/usr/bin/dbus-send", ["--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                     "org.freedesktop.DBus.GetNameOwner", "string:\(name)"])
        guard result.status == 0 else { return nil }
        return result.stdout.split(separator: "\"").dropFirst().first.map(String.init)
    }

    /// Runs a client program on this bus; `stdin` is fed from a file.
    @discardableResult
    func run(_ executable: String, _ arguments: [String], stdin: String = "", environment extra: [String: String] = [:]) throws -> ClientResult {
        let result = try runFileFed(executable, arguments, stdin: stdin, environment: environment.merging(extra) { $1 }, in: home)
        return ClientResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs Debian's Python (the one that has python3-keyring and python3-secretstorage) on a script.
    @discardableResult
    func python(_ script: String, stdin: String = "", arguments: [String] = [], environment extra: [String: String] = [:]) throws -> ClientResult {
        try run("/usr/bin/python3", ["-c", script] + arguments, stdin: stdin, environment: extra)
    }

    /// A connection used by a process other than the one that made it: Python connects in a
    /// child (the maker) with `connect` (an expression giving the socket), hands the connection
    /// down by fork, and the grandchild (the heir) evaluates `ask` (an expression using the socket
    /// `s`, giving what to print). With `makerExits`, the maker has exited and been reaped
    /// before the heir asks; otherwise the heir asks while the maker waits for it. `prelude`
    /// defines what the two expressions use.
    func askFromAnHeir(makerExits: Bool, prelude: String = "", connect: String, ask: String,
                       arguments: [String] = [], environment extra: [String: String] = [:]) throws -> ClientResult {
        try python(prelude + """
        import os, sys, time
        read_end, write_end = os.pipe()
        maker = os.fork()
        if maker == 0:
            s = \(connect)
            heir = os.fork()
            if heir == 0:
                os.close(read_end)
                if \(makerExits ? "True" : "False"):
                    time.sleep(0.5)   # the maker has exited and been reaped by now
                os.write(write_end, str(\(ask)).encode())
                os._exit(0)
            if \(makerExits ? "False" : "True"):
                os.waitpid(heir, 0)
            os._exit(0)
        os.close(write_end)
        os.waitpid(maker, 0)
        print(os.read(read_end, 100).decode())
        """, arguments: arguments, environment: extra)
    }

    /// Runs the keychainctl built beside the tests, on this sandbox's keychain.
    @discardableResult
    func keychainctl(_ arguments: [String], stdin: String = "") throws -> ClientResult {
        try run(try BuiltProduct.url("keychainctl").path, arguments, stdin: stdin)
    }

    /// Runs secret-tool (Debian's libsecret-tools), for at most 60 s: libsecret waits for a
    /// prompt's Completed signal without a time limit, so a daemon that died mid-prompt would
    /// otherwise hang the test instead of failing it (exit 124 then).
    @discardableResult
    func secretTool(_ arguments: [String], stdin: String = "") throws -> ClientResult {
        try run("/usr/bin/timeout", ["--kill-after=5", "60", "/usr/bin/secret-tool"] + arguments, stdin: stdin)
    }

    enum SandboxError: Error { case daemonDidNotStart }
}

/// Finds an executable product that `swift build` put next to the test bundle.
enum BuiltProduct {
    static func url(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.appendingPathComponent(name),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "\(name) is not built; run `swift build --build-tests` first")
    }
}
