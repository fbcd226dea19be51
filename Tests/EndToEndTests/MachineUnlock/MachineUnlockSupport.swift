import Foundation
import Testing

/// The real tools the machine-unlock tests run: systemd-creds (Debian's `systemd`), tpm2-tools
/// and the software TPM swtpm. CI installs them (scripts/install-system-packages.sh), so there a
/// missing tool fails the tests; elsewhere they are skipped, saying which tool is missing.
enum MachineUnlockTools {
    static func find(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }
    static var hasSystemdCreds: Bool { find("systemd-creds") != nil }
    static var hasTPM2: Bool { ["swtpm", "tpm2_createprimary", "tpm2_unseal", "tpm2_pcrextend"].allSatisfy { find($0) != nil } }

    /// Runs a tool directly (not keychainctl), with `environment` added to this process's.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data = Data()) throws -> CLIResult {
        let sandbox = try CLISandbox()
        let url = try #require(find(tool), "\(tool) is not installed")
        return try sandbox.run(arguments, stdinData: stdin,
                               environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, executable: url)
    }
}

/// A machine key for `systemd-creds --with-key=host` of the test's own: `SYSTEMD_CREDENTIAL_SECRET`
/// points systemd-creds at a file in the sandbox instead of /var/lib/systemd/credential.secret,
/// which `systemd-creds setup` creates there. No systemd needs to run for encrypt and decrypt.
struct HostCredentialKey {
    let environment: [String: String]

    init(_ sandbox: CLISandbox, name: String = "credential.secret") throws {
        environment = ["SYSTEMD_CREDENTIAL_SECRET": sandbox.path(name)]
        let setup = try MachineUnlockTools.run("systemd-creds", ["setup"], environment: environment)
        try #require(setup.status == 0, "systemd-creds setup: \(setup)")
    }
}

/// A software TPM (swtpm) on loopback, started for one test and stopped with it; tpm2-tools and
/// keychainctl reach it through `TPM2TOOLS_TCTI`. Its state lives in a folder of its own, so
/// a second instance is another TPM (other seeds, other primary keys).
final class SoftwareTPM {
    let environment: [String: String]
    private let process: Process
    let stateFolder: URL

    init(_ sandbox: CLISandbox, name: String = "tpm") throws {
        stateFolder = URL(fileURLWithPath: sandbox.path(name))
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        var lastError = ""
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000) & ~1
            let process = Process()
            let swtpm: URL = try #require(MachineUnlockTools.find("swtpm"))
            process.executableURL = swtpm
            process.arguments = ["socket", "--tpm2", "--tpmstate", "dir=\(stateFolder.path)",
                                 "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1",
                                 "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1",
                                 "--flags", "not-need-init,startup-clear"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let environment = ["TPM2TOOLS_TCTI": "swtpm:host=127.0.0.1,port=\(port)"]
            // Ready once the TPM answers a command; a port taken by someone else ends the process.
            for _ in 0..<50 where process.isRunning {
                let probe = try MachineUnlockTools.run("tpm2_getrandom", ["--hex", "4"], environment: environment)
                if probe.status == 0 {
                    self.process = process
                    self.environment = environment
                    return
                }
                lastError = probe.stderr
                Thread.sleep(forTimeInterval: 0.1)
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
        Issue.record("swtpm did not start: \(lastError)")
        throw CancellationError()
    }

    deinit {
        // SIGKILL: swtpm handles SIGTERM, but inherits the test runner's blocked signal mask,
        // where SIGTERM stays pending for ever.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
