import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built credential helpers, git and keychainctl in a ``CLISandbox`` (a private HOME,
/// so a private default keychain), with standard input given as bytes, and a deadline: a helper
/// that waited at a prompt would fail the test instead of hanging it.
struct HelperRunner {
    let sandbox: CLISandbox

    static let deadline: TimeInterval = 60

    /// A built executable of this package, found as ``CLIBinary`` finds keychainctl.
    static func binary(_ name: String) throws -> URL {
        let keychainctl = try CLIBinary.url()
        let url = keychainctl.deletingLastPathComponent().appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "\(name) is not built; run `swift build --build-tests` first")
        return url
    }

    static func git() throws -> URL { try binary("git-credential-keychain") }
    static func docker() throws -> URL { try binary("docker-credential-keychain") }

    /// Runs `executable`; `stdin` nil means standard input is closed (not merely empty).
    @discardableResult
    func run(_ executable: URL, _ arguments: [String], stdin: Data? = Data(),
             environment extra: [String: String] = [:]) throws -> CLIResult {
        let id = UUID().uuidString
        let inURL = sandbox.home.appendingPathComponent("in-\(id)")
        let outURL = sandbox.home.appendingPathComponent("out-\(id)")
        let errURL = sandbox.home.appendingPathComponent("err-\(id)")
        defer { for url in [inURL, outURL, errURL] { try? FileManager.default.removeItem(at: url) } }
        _ = FileManager.default.createFile(atPath: inURL.path, contents: stdin ?? Data())
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outURL)
        let errors = try FileHandle(forWritingTo: errURL)
        let process = Process()
        // Closed here, not when Foundation lets go of the process (Tests/Support/ProcessHandles.swift).
        var closeAfterwards: [FileHandle] = []
        if stdin == nil {
            // Foundation cannot start a process with descriptor 0 closed; the shell can.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" <&-", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
            let input = try FileHandle(forReadingFrom: inURL)
            process.standardInput = input
            closeAfterwards.append(input)
        }
        process.environment = sandbox.environment.merging(["GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"]) { $1 }
            .merging(extra) { $1 }
        process.currentDirectoryURL = sandbox.home
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < Self.deadline { usleep(10_000) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try output.close()
        try errors.close()
        for handle in closeAfterwards { try? handle.close() }
        #expect(!hung, "\(executable.lastPathComponent) \(arguments) did not finish in \(Self.deadline) s")
        return CLIResult(status: process.terminationStatus,
                         stdoutData: (try? Data(contentsOf: outURL)) ?? Data(),
                         stderrData: (try? Data(contentsOf: errURL)) ?? Data())
    }

    /// `git-credential-keychain <action>` with `input` as its standard input.
    @discardableResult
    func gitHelper(_ action: String, _ input: String) throws -> CLIResult {
        try run(try Self.git(), [action], stdin: Data(input.utf8))
    }

    /// `docker-credential-keychain <action>` with `input` as its standard input.
    @discardableResult
    func dockerHelper(_ action: String, _ input: String = "") throws -> CLIResult {
        try run(try Self.docker(), [action], stdin: Data(input.utf8))
    }

    /// `git credential <action>` (fill, approve, reject) with only our helper configured.
    @discardableResult
    func git(_ action: String, _ input: String, useHttpPath: Bool = false) throws -> CLIResult {
        let gitPath = ["/usr/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let git = try #require(gitPath, "git is not installed")
        return try run(URL(fileURLWithPath: git),
                       ["-c", "credential.helper=", "-c", "credential.helper=\(try Self.git().path)",
                        "-c", "credential.useHttpPath=\(useHttpPath)", "credential", action],
                       stdin: Data(input.utf8), environment: ["GIT_ASKPASS": "", "SSH_ASKPASS": ""])
    }

    /// keychainctl in the same sandbox.
    @discardableResult
    func keychainctl(_ arguments: [String], stdin: String? = nil) throws -> CLIResult {
        try sandbox.run(arguments, stdin: stdin)
    }

    /// Everything the default keychain holds, passwords included, to tell that a failed call
    /// changed nothing.
    func snapshot() throws -> String {
        let dump = try keychainctl(["dump-keychain", "-d"])
        try #require(dump.status == 0, "\(dump)")
        return dump.stdout
    }

    /// Gives the default keychain the password `pw` and locks it.
    func lockDefaultKeychain() throws {
        let set = try keychainctl(["set-keychain-password", "-p", "pw"])
        try #require(set.status == 0, "\(set)")
        let lock = try keychainctl(["lock-keychain"])
        try #require(lock.status == 0, "\(lock)")
        let state = try keychainctl(["show-keychain-info", "--locked-status"])
        try #require(state.status == 36, "the keychain did not lock: \(state)")
    }
}

extension CLIResult {
    /// The `key=value` lines of a git credential answer.
    var credentialFields: [String: String] {
        var fields: [String: String] = [:]
        for line in stdout.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }
}
