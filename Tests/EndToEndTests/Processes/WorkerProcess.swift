import Foundation
import KeychainTestSupport
import KeychainStore
import Testing

/// Runs a piece of a test in separate processes: this test binary, started again with a
/// `SWIFT_KEYCHAIN_PROOF_ROLE` variable and a filter that selects one worker test (see
/// ``ProofWorkers``). Used where the proof needs several processes (concurrency) or must survive
/// a crash to report it (robustness).
enum WorkerProcess {
    static let roleVariable = "SWIFT_KEYCHAIN_PROOF_ROLE"

    /// The role this process was started for, or nil in a normal test run.
    static var role: String? { ProcessInfo.processInfo.environment[roleVariable] }

    /// A parameter the parent passed.
    static func parameter(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment["SWIFT_KEYCHAIN_PROOF_\(name)"] else {
            throw ProofFailure("worker parameter \(name) is missing")
        }
        return value
    }

    /// Starts this test binary as a worker for `role` running the worker test named `test`.
    /// The caller waits for it with `waitForExit()` (KeychainTestSupport).
    static func start(role: String, test: String, parameters: [String: String], output: URL) throws -> Process {
        var environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/tmp",
                           roleVariable: role]
        for (name, value) in parameters { environment["SWIFT_KEYCHAIN_PROOF_\(name)"] = value }
        let process = Process()
        process.executableURL = ProofSupport.testBinary
        process.arguments = ["--testing-library", "swift-testing", "--filter", "ProofWorkers/\(test)"]
        process.environment = environment
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()
        return process
    }

    /// Opens the keychain a parent prepared, with the device key file it named.
    static func openKeychain(identity: ClientIdentity) throws -> KeychainContext {
        let key = try DeviceKey.load(from: URL(fileURLWithPath: try parameter("DEVICE_KEY")), create: false)
        let file = try KeychainFile.open(at: URL(fileURLWithPath: try parameter("KEYCHAIN")), deviceKey: key, create: false)
        return KeychainContext(file: file, identity: identity)
    }
}

/// An append-only log a worker writes as it goes, so the parent can see what happened even if the
/// worker died. Each line is flushed to the file when written.
final class WorkerLog {
    private let handle: FileHandle

    init(_ url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
    }

    func write(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }

    deinit {
        try? handle.close()
    }
}
