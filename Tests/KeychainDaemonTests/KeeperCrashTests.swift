import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The keeper killed with SIGKILL while 8 served processes write: no write it acknowledged is
/// lost, and the keychain opens and serves again with every one of them intact. The served
/// twin of the crash suite (EndToEndTests/Crashes), where the writers themselves are killed.
@Suite struct KeeperCrashTests {
    static let writers = 8

    @Test func killingTheKeeperDuringWritesLosesNoAcknowledgedWrite() throws {
        let sandbox = try KeeperTests.startKeeper()
        let client = try BuiltProduct.url("keychain-served-client")
        var environment = sandbox.environment
        environment["SWIFT_KEYCHAIN_KEEPER"] = "served"
        var processes: [(Process, URL)] = []
        for writer in 0..<Self.writers {
            let output = sandbox.home.appendingPathComponent("writer-\(writer).out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let process = Process()
            process.executableURL = client
            process.arguments = ["add-many", "writer-\(writer)", "1000000"]
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append((process, output))
        }
        func acknowledged(_ output: URL) -> [Int] {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { $0.hasPrefix("ok ") ? Int($0.dropFirst(3)) : nil }
        }
        // Kill once every writer has had some writes acknowledged, in the middle of the stream.
        for _ in 0..<600 where processes.contains(where: { acknowledged($0.1).count < 20 }) { usleep(50_000) }
        let keeper = try #require(sandbox.daemon)
        #expect(kill(keeper.processIdentifier, SIGKILL) == 0)
        keeper.waitUntilExit()
        for (process, _) in processes { process.waitUntilExit() }

        let acked = processes.map { acknowledged($0.1) }
        #expect(acked.allSatisfy { $0.count >= 20 }, "some writer never got going: \(acked.map(\.count))")
        // Each writer stopped with errSecNotAvailable once the keeper was gone, not by crashing.
        for (process, output) in processes {
            #expect(process.terminationReason == .exit && process.terminationStatus == 1)
            #expect(((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("status -25291"), "\(output.lastPathComponent)")
        }

        try sandbox.start(arguments: ["--keeper"])
        for (writer, indices) in acked.enumerated() {
            let listed = try sandbox.servedClient(["accounts", "writer-\(writer)"])
            let stored = Set(listed.stdout.dropFirst("accounts ".count).trimmingCharacters(in: .newlines).split(separator: ",").map(String.init))
            let lost = indices.filter { !stored.contains("\($0)=value-\($0)") }
            #expect(lost.isEmpty, "writer \(writer) lost \(lost.count) of \(indices.count) acknowledged writes, e.g. \(lost.prefix(5))")
        }
        #expect(sandbox.stop() == 0)
    }
}
