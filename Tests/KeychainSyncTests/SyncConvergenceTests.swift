#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import KeychainTestSupport
@testable import KeychainSync
import Testing

/// Devices in separate processes, through a real PostgreSQL server, converge on the same items
/// (docs/sync.md, "Conflicts").
@Suite("Sync: devices converge", .serialized)
struct SyncConvergenceTests {
    @Test("A second device waits for approval, then receives the first device's synchronizable items and only those")
    func joinApproveReceive() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let a = try SyncDevice("a"), b = try SyncDevice("b")
        try a.add("shared", "s3cret")
        try a.add("local", "stays here", synchronizable: false)
        try a.add("device-only", "stays too", accessible: "cku")
        let created = try a.cli(["join", server.url])
        #expect(created.status == 0)
        let group = try #require(SyncDevice.groupFingerprint(in: created.output), "\(created.output)")
        try a.syncNow()

        // Without the group's fingerprint a device does not join a group the database holds.
        let blind = try b.cli(["join", server.url, "--name", "laptop"])
        #expect(blind.status != 0 && blind.output.contains("--group"), "\(blind.output)")
        let joined = try b.cli(["join", server.url, "--name", "laptop", "--group", group])
        #expect(joined.status == 0)
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output))
        let early = try b.cli(["now"])
        #expect(early.status != 0)
        #expect(early.output.contains("waits for approval"))
        #expect(try b.secret("shared") == nil)

        let approved = try a.cli(["approve", fingerprint])
        #expect(approved.status == 0, "\(approved.output)")
        #expect(approved.output.contains("laptop"))
        try b.syncNow()
        #expect(try b.secret("shared") == "s3cret")
        #expect(try b.secret("local") == nil)
        #expect(try b.secret("device-only") == nil)

        // Both show the same group fingerprint, and each lists the other.
        let statusA = try a.cli(["status"]).output, statusB = try b.cli(["status"]).output
        let line = { (prefix: String, text: String) in text.split(separator: "\n").first { $0.hasPrefix(prefix) } }
        #expect(line("group:", statusA) != nil && line("group:", statusA) == line("group:", statusB))
        #expect(line("group:", statusA)?.contains(group) == true)
        #expect(line("roster:", statusA) != nil && line("roster:", statusA) == line("roster:", statusB))
        #expect(statusA.contains(fingerprint) && statusA.contains("approved"))
        #expect(statusB.contains("pending changes: 0"))
    }

    @Test("Concurrent edits of one item: the later modification wins on both devices")
    func concurrentEdits() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("token", "v1")
        try group.syncAll()
        #expect(try group[1].secret("token") == "v1")

        try group[0].update("token", "from a")
        Thread.sleep(forTimeInterval: 0.01)
        try group[1].update("token", "from b, later")
        // a pushes first; b's push then conflicts, b pulls a's older edit, keeps its own, pushes.
        try group[0].syncNow()
        let output = try group[1].syncNow()
        #expect(output.contains("kept local 1"), "\(output)")
        try group[0].syncNow()
        #expect(try group[0].secret("token") == "from b, later")
        #expect(try group[1].secret("token") == "from b, later")
    }

    @Test("A push that loses the compare-and-set is merged and retried in the same round")
    func compareAndSetConflict() async throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("token", "v1")
        try group.syncAll()
        try group[1].update("token", "b")
        try await Task.sleep(nanoseconds: 10_000_000)
        try group[0].update("token", "a, later")
        try group[1].syncNow()
        // a pushes without having pulled b's write, as when b's push lands between a's pull and
        // a's push: the compare-and-set refuses it, a pulls, keeps its newer item, pushes again.
        let report = try await group[0].engine().round(pullFirst: false)
        #expect(report.conflicts == 1 && report.keptLocal == 1 && report.pushed == 1, "\(report)")
        try group[1].syncNow()
        #expect(try group[1].secret("token") == "a, later")
    }

    @Test("A delete travels as a tombstone, wins over an older edit, and a later re-add wins over it")
    func deleteThenReAdd() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("gone", "v1")
        try group.syncAll()
        #expect(try group[1].secret("gone") == "v1")

        try group[1].update("gone", "older edit")
        Thread.sleep(forTimeInterval: 0.01)
        try group[0].delete("gone")
        try group[1].syncNow()
        try group.syncAll()
        #expect(try group[0].secret("gone") == nil)
        #expect(try group[1].secret("gone") == nil)

        Thread.sleep(forTimeInterval: 0.01)
        try group[1].add("gone", "back again")
        try group.syncAll()
        #expect(try group[0].secret("gone") == "back again")
        #expect(try group[1].secret("gone") == "back again")
    }

    @Test("Three devices, one offline for a while with changes of its own, all converge")
    func offlineDevice() throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("shared", "v1")
        try group.syncAll()
        // device2 goes offline: it keeps working locally.
        try group[2].add("offline-new", "made offline")
        try group[2].update("shared", "offline edit (older)")
        Thread.sleep(forTimeInterval: 0.01)
        for index in 0..<20 {
            try group[index % 2].add("online-\(index)", "value \(index)")
        }
        try group[1].update("shared", "online edit (newer)")
        try group[0].syncNow()
        try group[1].syncNow()
        try group[0].syncNow()
        // device2 comes back.
        try group.syncAll()
        let expected = try group[0].contents()
        #expect(expected.count == 22)
        #expect(expected["shared"] == "online edit (newer)")
        #expect(expected["offline-new"] == "made offline")
        #expect(try group[1].contents() == expected)
        #expect(try group[2].contents() == expected)
    }

    @Test("A device that watches receives a change through LISTEN/NOTIFY without being asked")
    func watchReceivesNotification() throws {
        let group = try SyncGroupFixture(devices: 2)
        let watcherPath = try SyncDevice.executable("keychain-sync").path
        let watcher = Process()
        watcher.executableURL = URL(fileURLWithPath: watcherPath)
        watcher.arguments = ["watch", "--rounds", "2", "--keychain", group[1].keychainURL.path]
        watcher.environment = group[1].environment
        let pipe = Pipe()
        watcher.standardOutput = pipe
        try watcher.run()
        // The first round runs at start; wait for its report before writing.
        let handle = pipe.fileHandleForReading
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("pulled") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        try group[0].add("pushed", "arrives by notification")
        try group[0].syncNow()
        let exit = watcher.waitForExit()
        #expect(exit.terminationStatus == 0)
        #expect(try group[1].secret("pushed") == "arrives by notification")
    }
}
#endif
