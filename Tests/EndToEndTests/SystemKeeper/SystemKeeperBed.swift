import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `keychaind --system` started by the test as root, as a service manager would start it: a
/// service user made for the test (`useradd --system`), its state folder, socket and (empty,
/// root-owned) rule folder under one temporary folder. It becomes that user itself.
final class SystemKeeperBed {
    let serviceUser: String
    let serviceUID: UInt32
    let folder: URL
    var stateFolder: URL { folder.appendingPathComponent("state") }
    var socket: String { folder.appendingPathComponent("run/keeper").path }
    var policyFolder: URL { folder.appendingPathComponent("apps.d") }
    private var logURL: URL { folder.appendingPathComponent("keychaind.log") }
    private(set) var daemon: Process?
    /// Started on demand: systemd-socket-activate makes the socket and starts keychaind at the
    /// first connection, passing it the socket (as `swift-keychain-keeper.socket` does).
    let onDemand: Bool

    init(onDemand: Bool = false) throws {
        self.onDemand = onDemand
        try PAMEnvironment.require()
        let tag = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(10)
        serviceUser = "kcsvc\(tag)"
        folder = URL(fileURLWithPath: "/tmp/kcsys-\(tag)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("apps.d"), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        try PAMEnvironment.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--home-dir", "/nonexistent",
                                                     "--shell", "/usr/sbin/nologin", "--user-group", serviceUser])
        let id = try PAMEnvironment.run("/usr/bin/id", ["-u", serviceUser])
        serviceUID = try #require(UInt32(id.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        try start()
    }

    deinit {
        _ = stop()
        _ = try? PAMEnvironment.run("/usr/sbin/userdel", ["--force", serviceUser], check: false)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the keeper and waits until it serves.
    func start() throws {
        let process = Process()
        let keychaind = try HelperRunner.binary("keychaind").path
        let arguments = ["--system", "--service-user", serviceUser, "--state-directory", stateFolder.path,
                         "--socket", socket, "--policy-folder", policyFolder.path, "--log-level", "debug"]
        if onDemand {
            // The socket every user may connect to (the unit's SocketMode=0666), in a folder
            // every user may enter; the keeper is exec'd in the same process once a client connects.
            try FileManager.default.createDirectory(atPath: (socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "umask 000; exec /usr/bin/systemd-socket-activate -l \"$0\" \"$@\"", socket, keychaind] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: keychaind)
            process.arguments = arguments
        }
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        if !FileManager.default.fileExists(atPath: logURL.path) { _ = FileManager.default.createFile(atPath: logURL.path, contents: nil) }
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        let before = self.log.components(separatedBy: "serving the system keeper").count
        try process.run()
        try log.close()
        daemon = process
        let deadline = Date().addingTimeInterval(30)
        if onDemand {
            while !FileManager.default.fileExists(atPath: socket) {
                try #require(process.isRunning && Date() < deadline, "systemd-socket-activate did not listen: \(self.log)")
                usleep(20_000)
            }
            // What the unit's SocketMode=0666 has systemd do; systemd-socket-activate makes it 0644.
            try #require(chmod(socket, 0o666) == 0)
            return
        }
        while self.log.components(separatedBy: "serving the system keeper").count == before {
            try #require(process.isRunning, "keychaind --system stopped: \(self.log)")
            try #require(Date() < deadline, "keychaind --system did not start: \(self.log)")
            usleep(20_000)
        }
    }

    /// Stops the keeper (SIGTERM) and returns its exit status.
    @discardableResult
    func stop() -> Int32? {
        guard let daemon, daemon.isRunning else { return nil }
        daemon.terminate()
        // systemd-socket-activate, still waiting for a client, does not stop at SIGTERM.
        let deadline = Date().addingTimeInterval(10)
        while daemon.isRunning && Date() < deadline { usleep(20_000) }
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
        self.daemon = nil
        return daemon.terminationStatus
    }

    var processID: Int32 { daemon?.processIdentifier ?? 0 }
    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// The files the keeper keeps for `uid`.
    func keychain(ofUser uid: UInt32) -> URL { stateFolder.appendingPathComponent("users/\(uid)/login.keychain-db") }
    func deviceKey(ofUser uid: UInt32) -> URL { stateFolder.appendingPathComponent("users/\(uid)/device-key") }

    /// The SecItem test client (Tests/ServedClient), served by this keeper, as the bed's user.
    func client(_ bed: PAMTestBed, _ arguments: [String], environment: [String] = []) throws -> SessionStep {
        SessionStep(arguments: ["/usr/bin/env", "SWIFT_KEYCHAIN_KEEPER=\(socket)"] + environment
                        + [try HelperRunner.binary("keychain-served-client").path] + arguments, asUser: true)
    }

    /// keychainctl, served by this keeper, as the bed's user.
    func keychainctl(_ bed: PAMTestBed, _ arguments: [String], stdin: String = "") -> SessionStep {
        SessionStep(arguments: ["/usr/bin/env", "SWIFT_KEYCHAIN_KEEPER=\(socket)", bed.keychainctl.path] + arguments, stdin: stdin, asUser: true)
    }

    /// A built program of this package, served by this keeper, as the bed's user.
    func served(_ bed: PAMTestBed, _ program: String, _ arguments: [String] = []) throws -> SessionStep {
        SessionStep(arguments: ["/usr/bin/env", "SWIFT_KEYCHAIN_KEEPER=\(socket)", try HelperRunner.binary(program).path] + arguments,
                    asUser: true)
    }

    /// The served client as the Flatpak app `appID`, run by the bed's user in a bubblewrap root
    /// with a written `/.flatpak-info`, the user's whole home folder bound in read-write (as
    /// Flatpak's `--filesystem=home` gives it) and the keeper's socket folder.
    func client(_ bed: PAMTestBed, app appID: String, _ arguments: [String]) throws -> SessionStep {
        let info = bed.publicFolder.appendingPathComponent("flatpak-info-\(appID)")
        try "[Application]\nname=\(appID)\n\n[Instance]\ninstance-id=1\n".write(to: info, atomically: true, encoding: .utf8)
        chmod(info.path, 0o644)
        let client = try HelperRunner.binary("keychain-served-client").resolvingSymlinksInPath().path
        let socketFolder = (socket as NSString).deletingLastPathComponent
        var root = ["--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
                    "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin",
                    "--proc", "/proc", "--dev", "/dev", "--bind", bed.home.path, bed.home.path,
                    "--ro-bind", info.path, "/.flatpak-info", "--bind", socketFolder, socketFolder, "--ro-bind", client, client]
        if FileManager.default.fileExists(atPath: "/opt/swift") { root += ["--ro-bind", "/opt/swift", "/opt/swift"] }
        return SessionStep(arguments: ["/usr/bin/bwrap"] + root + ["--setenv", "SWIFT_KEYCHAIN_KEEPER", socket, "--", client] + arguments,
                           asUser: true)
    }
}
