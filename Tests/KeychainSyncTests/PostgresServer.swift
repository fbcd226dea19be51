#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL 15 server in a temporary folder, listening only on a Unix socket there,
/// started and stopped by the test that owns it (initdb and pg_ctl from Debian's `postgresql`
/// package, installed by scripts/install-system-packages.sh). As root, the server runs as the
/// `postgres` user (PostgreSQL refuses to run as root).
final class PostgresServer: Sendable {
    static let binaries = "/usr/lib/postgresql/15/bin"
    let folder: URL
    /// Server settings (`-c name=value …`) beyond the socket-only defaults, such as a TCP port and TLS.
    let extraOptions: String
    /// The database user the tests connect as.
    static let user = "keychain"

    var dataFolder: String { folder.path + "/data" }
    /// A URL for `keychain-sync join`.
    var url: String { "postgresql://\(PostgresServer.user)@/postgres?host=\(folder.path)" }

    /// A fresh cluster; `prepare` runs after initdb and before the first start, with the data
    /// folder in place (for certificates or pg_hba.conf lines).
    init(extraOptions: String = "", prepare: (PostgresServer) throws -> Void = { _ in }) throws {
        self.extraOptions = extraOptions
        try #require(FileManager.default.isExecutableFile(atPath: PostgresServer.binaries + "/initdb"),
                     "PostgreSQL 15 is not installed (scripts/install-system-packages.sh installs it)")
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kc-pg-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        folder = base
        if getuid() == 0 {
            _ = try PostgresServer.run(["/bin/chown", "postgres:postgres", base.path])
        }
        let initdb = try PostgresServer.asServerUser([PostgresServer.binaries + "/initdb", "-D", dataFolder, "-U", PostgresServer.user,
                                                      "-A", "trust", "--no-sync", "-E", "UTF8"])
        try #require(initdb.status == 0, "initdb failed: \(initdb.output)")
        try prepare(self)
        try start()
    }

    /// Starts (or restarts) the server and waits until it accepts connections.
    func start() throws {
        let options = "-k \(folder.path) -c listen_addresses='' -p 5432 -c fsync=off -c max_connections=50 \(extraOptions)"
        let result = try PostgresServer.asServerUser([PostgresServer.binaries + "/pg_ctl", "-D", dataFolder, "-l", folder.path + "/server.log",
                                                      "-o", options, "-w", "start"])
        try #require(result.status == 0, "pg_ctl start failed: \(result.output) \(log())")
    }

    /// Stops the server at once, as a crash would: no shutdown checkpoint, connections cut.
    func kill() throws {
        let result = try PostgresServer.asServerUser([PostgresServer.binaries + "/pg_ctl", "-D", dataFolder, "-m", "immediate", "-w", "stop"])
        try #require(result.status == 0, "pg_ctl stop failed: \(result.output)")
    }

    /// Runs SQL with psql and returns its unaligned output.
    @discardableResult
    func sql(_ statement: String) throws -> String {
        let result = try PostgresServer.run(["/usr/bin/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder.path,
                                             "-U", PostgresServer.user, "-d", "postgres", "-c", statement])
        try #require(result.status == 0, "psql failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func log() -> String {
        (try? String(contentsOfFile: folder.path + "/server.log", encoding: .utf8)) ?? ""
    }

    func stop() {
        _ = try? PostgresServer.asServerUser([PostgresServer.binaries + "/pg_ctl", "-D", dataFolder, "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    static func asServerUser(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments)
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kc-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let exit = process.waitForExit()
        try handle.close()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: output)
        return (exit.terminationStatus, text)
    }
}
#endif
