import Foundation
import KeychainStore
import Testing

/// Runs `keychain-test-worker` commands for the crash and disk-full proofs: a keychain with its
/// device key in a file the worker reads, and the worker's output in a file that survives the
/// worker being killed.
struct CrashWorker {
    let directory: URL
    let keychain: URL
    let deviceKeyFile: URL

    init(prefix: String) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-\(prefix)-\(UUID().uuidString)", isDirectory: true)
        keychain = directory.appendingPathComponent("crash.keychain-db")
        deviceKeyFile = directory.appendingPathComponent("config/device-key")
        _ = try DeviceKey.load(from: deviceKeyFile, create: true)
    }

    static func executable() throws -> URL {
        let url = ProofSupport.productsDirectory.appendingPathComponent("keychain-test-worker")
        try #require(FileManager.default.isExecutableFile(atPath: url.path),
                     "keychain-test-worker is not built; run `swift build --build-tests` first")
        return url
    }

    /// The environment of a worker: its device key, and per-process unlock state, so that the
    /// proofs leave nothing in the user's kernel keyring.
    var environment: [String: String] {
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
         "HOME": directory.path,
         "SWIFT_KEYCHAIN_DEVICE_KEY_FILE": deviceKeyFile.path,
         "SWIFT_KEYCHAIN_NO_KERNEL_KEYRING": "1"]
    }

    /// Opens the keychain in this process with the worker's device key.
    func open(create: Bool = false) throws -> KeychainFile {
        try KeychainFile.open(at: keychain, deviceKey: DeviceKey.load(from: deviceKeyFile, create: false), create: create)
    }

    /// Starts `command` with its output going to `output`.
    func start(_ command: String, _ arguments: [String], output: URL) throws -> Process {
        try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = [command, keychain.path] + arguments
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until `output` holds `line` as a whole line, the process ends, or `timeout` passes.
    static func wait(for line: String, in output: URL, process: Process, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOf: output, encoding: .utf8), text.contains(line + "\n") { return true }
            if !process.isRunning { return false }
            usleep(500)
        }
        return false
    }

    /// The complete lines of `output` (a line cut short by a kill is dropped).
    static func lines(_ output: URL) -> [String] {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()
        return lines
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
