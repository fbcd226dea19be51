import Foundation

/// Runs one of the machine's sealing tools (`systemd-creds`, `tpm2_*`): found on the `PATH`,
/// given secrets only on standard input (never as arguments, which `ps` shows), its standard
/// output returned and its standard error kept for the failure message.
struct ExternalTool {
    /// What a run left.
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    let name: String

    /// The program's path, or a failure saying which package provides it.
    func executable(context: String, package: String) throws(CommandFailure) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw .general(context, "\(name) was not found on the PATH.", hint: "Install it (Debian: apt-get install \(package)).")
    }

    /// Runs the tool with `arguments`, feeding `input` to its standard input.
    func run(_ arguments: [String], input: Data = Data(), environment: [String: String]? = nil, in folder: URL? = nil,
             context: String, package: String) throws(CommandFailure) -> Output {
        let process = Process()
        process.executableURL = try executable(context: context, package: package)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = folder }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw .general(context, "\(name) could not be started.", hint: nil)
        }
        // Standard error is drained on another thread so that neither pipe can fill up and
        // stall the tool while the other is read.
        let errors = ErrorCollector()
        let reader = Thread { errors.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        try? stdin.fileHandleForWriting.write(contentsOf: input)
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let message = errors.wait()
        return Output(status: process.terminationStatus, stdout: output, stderr: message)
    }

    /// The first lines of a tool's standard error, for a failure message. The tools are given
    /// secrets only on standard input and never echo it, so their messages carry none.
    static func summary(_ stderr: String) -> String {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return "" }
        return " (" + lines.suffix(3).joined(separator: "; ") + ")"
    }
}

/// Standard error of a tool, handed from the reading thread to the caller.
private final class ErrorCollector: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var text = ""

    func set(_ data: Data) {
        text = String(decoding: data.prefix(4096), as: UTF8.self)
        done.signal()
    }

    func wait() -> String {
        done.wait()
        return text
    }
}
