import Foundation
import Testing

/// The errSec codes, their messages, KeychainKit's statics and advice, and the test tables are
/// generated from scripts/status-codes.tsv. A generated file edited by hand, or a table changed
/// without regenerating, would let the copies drift apart again; the generator's --check mode
/// finds both.
@Suite("Status codes: one table")
struct StatusCodeGenerationTests {
    /// The package root, found from this file's path (Tests/KeychainServicesTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("Regenerating from scripts/status-codes.tsv changes nothing")
    func generatedFilesAreCurrent() throws {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "Debian's python3 is needed")
        let process = Process()
        process.executableURL = python
        process.arguments = [Self.root.appendingPathComponent("scripts/generate-status-codes.py").path, "--check"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(report)")
    }

    #if !(os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    /// KeychainStore's SecStatus names (generated into Sources/KeychainStore/Support) are the layers
    /// below KeychainServices' way of naming a status; each must be the public constant's number.
    @Test("KeychainStore's SecStatus members equal the errSec constants of the same name")
    func storeNamesMatchServices() {
        #expect(storeStatusTable.count == statusCodeTable.count)
        for (name, store, services) in storeStatusTable {
            #expect(store == services, "SecStatus for \(name)")
        }
    }
    #endif
}
