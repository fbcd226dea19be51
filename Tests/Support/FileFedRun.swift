public import Foundation

/// What one run of a program left: its exit status and everything it printed.
public struct FileFedRunResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a program to its end with its standard streams on files in `folder` (standard input
/// fed from `stdin`), removed afterwards, and its handles closed as soon as it ends
/// (``ProcessHandles``). Files rather than pipes: a child that fills a pipe nobody reads yet
/// would block, and one that outlives the call keeps no pipe of the test open. The harnesses
/// of the daemon and agent tests run their clients through this.
public func runFileFed(_ executable: String, _ arguments: [String], stdin: String = "", environment: [String: String],
                       in folder: URL) throws -> FileFedRunResult {
    let id = UUID().uuidString
    let inURL = folder.appendingPathComponent("in-\(id)"), outURL = folder.appendingPathComponent("out-\(id)"),
        errURL = folder.appendingPathComponent("err-\(id)")
    defer { for url in [inURL, outURL, errURL] { try? FileManager.default.removeItem(at: url) } }
    _ = FileManager.default.createFile(atPath: inURL.path, contents: Data(stdin.utf8))
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = folder
    let handles = try ProcessHandles(input: inURL, output: outURL, errors: errURL)
    defer { handles.close() }
    handles.attach(to: process)
    try process.run()
    let exit = process.waitForExit()
    return FileFedRunResult(status: exit.terminationStatus,
                            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}
