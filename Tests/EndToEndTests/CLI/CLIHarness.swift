import Foundation
import KeychainTestSupport
import Testing

/// What one run of keychainctl left: its exit status and both output streams.
struct CLIResult: Sendable, CustomStringConvertible {
    let status: Int32
    let stdoutData: Data
    let stderrData: Data

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    var stderr: String { String(decoding: stderrData, as: UTF8.self) }

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// A private home for running the built keychainctl binary: HOME, XDG_CONFIG_HOME (device key)
/// and XDG_DATA_HOME (default keychain) all point into a fresh temporary folder, and no
/// SWIFT_KEYCHAIN_* variable leaks in from the test process, so runs are hermetic and tests run
/// in parallel.
final class CLISandbox: Sendable {
    let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory
            .appendingPathComponent("keychainctl-tests-\(UUID().uuidString)", isDirectory: true)
        // 0700 whatever the umask: keychain folders others could change are refused.
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(at: home)
    }

    /// Where the default keychain of this sandbox lives.
    var defaultKeychain: URL {
        home.appendingPathComponent("data/keychains/login.keychain-db")
    }

    /// A path inside the sandbox.
    func path(_ name: String) -> String { home.appendingPathComponent(name).path }

    var environment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "LANG": "C.UTF-8",
        ]
    }

    /// Runs keychainctl with `arguments`; `stdin` is fed from a file (so it is never a
    /// terminal), empty when nil; `stdinData` gives raw bytes instead. `executable` runs it
    /// under another name (a link to it).
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, stdinData: Data? = nil, environment extra: [String: String] = [:],
             executable: URL? = nil) throws -> CLIResult {
        let id = UUID().uuidString
        let inURL = home.appendingPathComponent("stdin-\(id)")
        let outURL = home.appendingPathComponent("stdout-\(id)")
        let errURL = home.appendingPathComponent("stderr-\(id)")
        defer {
            for url in [inURL, outURL, errURL] { try? FileManager.default.removeItem(at: url) }
        }
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdinData ?? Data((stdin ?? "").utf8))
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let input = try FileHandle(forReadingFrom: inURL)
        let output = try FileHandle(forWritingTo: outURL)
        let errors = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try executable ?? CLIBinary.url()
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = home
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let exit = process.waitForExit()
        try input.close()
        try output.close()
        try errors.close()
        return CLIResult(status: exit.terminationStatus,
                         stdoutData: (try? Data(contentsOf: outURL)) ?? Data(),
                         stderrData: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// A symbolic link to keychainctl named `name`, as if it were installed under that name.
    func linkToBinary(named name: String) throws -> URL {
        let link = home.appendingPathComponent("bin/\(name)")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try CLIBinary.url())
        return link
    }

    /// Adds a generic password with the password on the command line, and requires success.
    func addGeneric(account: String, service: String, password: String, extra: [String] = []) throws {
        let result = try run(["add-generic-password", "-a", account, "-s", service, "-w", password] + extra)
        try #require(result.status == 0, "add-generic-password failed: \(result)")
    }
}

/// Finds the keychainctl binary that `swift build` put next to the test bundle.
enum CLIBinary {
    static func url() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
                .deletingLastPathComponent().appendingPathComponent("keychainctl"),
            Bundle.main.bundleURL.appendingPathComponent("keychainctl"),
            ProofSupport.packageRoot.appendingPathComponent(".build/debug/keychainctl"),
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "keychainctl is not built; run `swift build --build-tests` first")
    }

    /// keychainctl-full, which the front (keychainctl) runs for what it does not serve: beside it.
    static func fullURL() throws -> URL {
        let full = try url().deletingLastPathComponent().appendingPathComponent("keychainctl-full")
        try #require(FileManager.default.isExecutableFile(atPath: full.path), "keychainctl-full is not built beside keychainctl")
        return full
    }
}
