#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
@testable import KeychainSync
import KeychainTestSupport
import Testing

/// What a malicious or failing server can and cannot do (docs/sync.md, "Threat model").
@Suite("Sync: faults and a hostile server", .serialized)
struct SyncFaultTests {
    /// The record id, as hex, of the one record in the database whose revision is the highest.
    static func latestRecord(_ server: PostgresServer) throws -> (id: String, revision: Int64) {
        let line = try server.sql("SELECT encode(record_id, 'hex') || '|' || revision FROM sync_records ORDER BY revision DESC LIMIT 1")
        let parts = line.split(separator: "|")
        return (String(parts[0]), Int64(parts[1])!)
    }

    @Test("A record tampered with in the database is detected, counted and never applied")
    func tamperedRecord() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("target", "genuine")
        try group[0].syncNow()
        let record = try SyncFaultTests.latestRecord(group.server)
        // Flip one byte of the sealed item before the second device has pulled it.
        try group.server.sql("""
            UPDATE sync_records SET ciphertext = overlay(ciphertext placing decode(lpad(to_hex(get_byte(ciphertext, 20) # 1), 2, '0'), 'hex') from 21 for 1)
            WHERE record_id = decode('\(record.id)', 'hex')
            """)
        let output = try group[1].syncNow()
        #expect(output.contains("rejected 1"), "\(output)")
        #expect(try group[1].secret("target") == nil)
        #expect(try group[1].cli(["status"]).output.contains("rejected records: 1"))

        // The device that holds the genuine item overwrites the bad record with its next change.
        try group[0].update("target", "genuine, changed")
        try group[0].syncNow()
        try group[1].syncNow()
        #expect(try group[1].secret("target") == "genuine, changed")
    }

    @Test("A device whose item sits under a tampered record repairs it by pushing its own version")
    func tamperedRecordRepaired() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("target", "genuine")
        try group.syncAll()
        let record = try SyncFaultTests.latestRecord(group.server)
        // Garbage under a newer revision: both devices pull it and refuse it.
        try group.server.sql("UPDATE sync_records SET ciphertext = decode(repeat('ab', 100), 'hex'), revision = revision + 100 WHERE record_id = decode('\(record.id)', 'hex')")
        try group.server.sql("UPDATE sync_groups SET revision = revision + 100")
        let repaired = try group[1].syncNow()
        #expect(repaired.contains("rejected 1") && repaired.contains("pushed 1"), "\(repaired)")
        #expect(try group[0].syncNow().contains("rejected 0"))
        #expect(try group[0].secret("target") == "genuine")
        #expect(try group[1].secret("target") == "genuine")
        let stored = try SyncFaultTests.latestRecord(group.server)
        #expect(stored.id == record.id && stored.revision > record.revision + 100)
    }

    @Test("A record moved to another record id, or relabelled with another revision, fails to open")
    func movedAndRelabelledRecords() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("first", "one")
        try group[0].add("second", "two")
        try group[0].syncNow()
        let rows = try group.server.sql("SELECT encode(record_id, 'hex') FROM sync_records ORDER BY revision").split(separator: "\n")
        try #require(rows.count == 2)
        // The server swaps the two records' contents: each now sits under the other's id.
        try group.server.sql("""
            UPDATE sync_records r SET ciphertext = o.ciphertext FROM sync_records o
            WHERE r.record_id <> o.record_id
            """)
        let output = try group[1].syncNow()
        #expect(output.contains("rejected 2"), "\(output)")
        #expect(try group[1].contents().isEmpty)
    }

    @Test("An old record replayed by the server is ignored: the newer item stays")
    func replayedRecord() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("rotated", "old password")
        try group[0].syncNow()
        try group[1].syncNow()
        let old = try group.server.sql("SELECT revision || '|' || encode(ciphertext, 'hex') FROM sync_records").split(separator: "|")
        Thread.sleep(forTimeInterval: 0.01)
        try group[0].update("rotated", "new password")
        try group[0].syncNow()
        try group[1].syncNow()
        #expect(try group[1].secret("rotated") == "new password")

        // The server puts the old record back, with its own (old, authentic) revision, and the
        // device has lost its cursor, so it reads the table from the start again.
        try group.server.sql("UPDATE sync_records SET revision = \(old[0]), ciphertext = decode('\(old[1])', 'hex')")
        try SyncStateFile(at: SyncStateFile.location(forKeychain: group[1].keychainURL), deviceKey: group[1].deviceKey)
            .setInteger(SyncEngine.Setting.cursor, 0)
        let output = try group[1].syncNow()
        #expect(output.contains("replayed 1"), "\(output)")
        #expect(try group[1].secret("rotated") == "new password")

        // Under a fresh revision, so that every device pulls it, the seal no longer matches.
        try group.server.sql("UPDATE sync_records SET revision = 1000")
        let relabelled = try group[1].syncNow()
        #expect(relabelled.contains("rejected 1"), "\(relabelled)")
        #expect(try group[1].secret("rotated") == "new password")
    }

    @Test("The server killed in the middle of a large push and restarted: nothing is lost, all arrives")
    func serverKilledMidSync() async throws {
        let group = try SyncGroupFixture(devices: 2)
        for index in 0..<3000 { try group[0].add("bulk-\(index)", "secret \(index)") }
        let process = Process()
        process.executableURL = try SyncDevice.executable("keychain-sync")
        process.arguments = ["now", "--keychain", group[0].keychainURL.path]
        process.environment = group[0].environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill the server as soon as the first batch is in, while the push goes on.
        var stored = 0
        for _ in 0..<2000 where stored == 0 {
            stored = Int(try group.server.sql("SELECT count(*) FROM sync_records")) ?? 0
            if stored == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        try group.server.kill()
        let exit = process.waitForExit()
        let afterCrash = Int(try { try group.server.start(); return try group.server.sql("SELECT count(*) FROM sync_records") }()) ?? -1
        // Either the push was cut (the usual case) or it had just finished.
        #expect(exit.terminationStatus != 0 || afterCrash == 3000)
        #expect(afterCrash >= 0 && afterCrash <= 3000)
        // Local writes during the outage are not lost either.
        try group[0].add("during-outage", "kept")
        try group.syncAll()
        let contents = try group[1].contents()
        #expect(contents.count == 3001)
        #expect(contents["bulk-2999"] == "secret 2999")
        #expect(contents["during-outage"] == "kept")
        #expect(Int(try group.server.sql("SELECT count(*) FROM sync_records")) == 3001)
    }

    @Test("The connection cut in the middle of a push transaction: the open batch is rolled back, the round fails at once, a retry completes it")
    func connectionCutMidTransaction() async throws {
        let group = try SyncGroupFixture(devices: 2)
        for index in 0..<3000 { try group[0].add("bulk-\(index)", "secret \(index)") }
        // The second batch's inserts are slowed down on the server, so that its transaction stays
        // open long enough for the cut below to find it on any machine (a fast push once ended
        // before the test could cut it).
        try group.server.sql("""
            CREATE FUNCTION slow_second_batch() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (SELECT count(*) FROM sync_records) BETWEEN \(SyncEngine.pushBatch) AND \(2 * SyncEngine.pushBatch) THEN
                    PERFORM pg_sleep(0.02);
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER slow_second_batch AFTER INSERT ON sync_records FOR EACH ROW EXECUTE FUNCTION slow_second_batch();
            """)
        let process = Process()
        process.executableURL = try SyncDevice.executable("keychain-sync")
        process.arguments = ["now", "--keychain", group[0].keychainURL.path]
        process.environment = group[0].environment
        let errors = group.server.folder.appendingPathComponent("push.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let errorHandle = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorHandle
        try process.run()
        // Wait until a push transaction has written (it holds a transaction id), then cut that
        // connection from the server side, as a network failure would. Whether its backend is
        // between two statements or inside the slowed insert does not matter: looking only for
        // the moments between statements missed them all once, when the whole suite loaded the
        // machine and each look took longer than the pushes' short pauses.
        var cut = ""
        while cut != "t" && process.isRunning {
            cut = try group.server.sql("""
                SELECT coalesce(bool_or(pg_terminate_backend(pid)), false) FROM pg_stat_activity
                WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = 'postgres'
                  AND backend_xid IS NOT NULL AND state IN ('active', 'idle in transaction')
                """)
            if cut != "t" { try await Task.sleep(nanoseconds: 2_000_000) }
        }
        let exit = process.waitForExit()
        try group.server.sql("DROP TRIGGER slow_second_batch ON sync_records")
        try errorHandle.close()
        let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        let stored = Int(try group.server.sql("SELECT count(*) FROM sync_records")) ?? -1
        #expect(cut == "t", "the push ended before its connection could be cut")
        // Batches are whole: a cut transaction leaves none of its records behind.
        #expect(stored % SyncEngine.pushBatch == 0, "\(stored) records after the cut")
        // The round fails on the lost connection itself, not on the engine's deadline or the
        // command's last-resort exit.
        #expect(exit.terminationReason == .exit && exit.terminationStatus == 1, "\(exit) \(message)")
        #expect(message.contains("connection"), "\(message)")

        // A local write after the failure, then the next rounds: everything arrives, once.
        try group[0].add("after-cut", "kept")
        try group.syncAll()
        let contents = try group[1].contents()
        #expect(contents.count == 3001)
        #expect(contents["bulk-2999"] == "secret 2999" && contents["after-cut"] == "kept")
        #expect(Int(try group.server.sql("SELECT count(*) FROM sync_records")) == 3001)
        #expect(try group[0].cli(["status"]).output.contains("pending changes: 0"))
    }

    @Test("A removed device reads nothing written after its removal; the others go on")
    func removedDevice() async throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("before", "seen by all")
        try group.syncAll()
        #expect(try group[2].secret("before") == "seen by all")
        let fingerprint = try await group[2].engine().deviceFingerprint()
        let removed = try group[0].cli(["remove-device", fingerprint])
        #expect(removed.status == 0, "\(removed.output)")

        try group[0].add("after", "not for device2")
        try group[0].syncNow()
        try group[1].syncNow()
        #expect(try group[1].secret("after") == "not for device2")

        let refused = try group[2].cli(["now"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("removed"))
        #expect(try group[2].secret("after") == nil)
        // Even reading the database directly with every key it kept opens nothing new.
        let keys = try #require(try await group[2].engine().heldKeys())
        #expect(try group.server.sql("SELECT count(*) FROM sync_key_shares WHERE epoch > \(keys.latestEpoch!) AND recipient = '\(try await group[2].engine().deviceID())'") == "0")
        let rows = try group.server.sql("SELECT encode(record_id, 'hex') || '|' || revision || '|' || epoch || '|' || encode(ciphertext, 'hex') FROM sync_records")
        for row in rows.split(separator: "\n") {
            let parts = row.split(separator: "|").map(String.init)
            let epoch = Int64(parts[2])!
            #expect(epoch > keys.latestEpoch!)
            #expect(throws: SyncError.self) {
                _ = try keys.open(Data(hex: parts[3]), recordID: Data(hex: parts[0]), epoch: epoch, revision: Int64(parts[1])!)
            }
        }
        // The remaining devices still agree, and a new item reaches device1 after device1's own re-key view.
        try group[1].add("later", "still syncing")
        try group[1].syncNow()
        try group[0].syncNow()
        #expect(try group[0].secret("later") == "still syncing")
    }

    @Test("A device that leaves forgets the group; the others are re-keyed and go on")
    func leave() throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("shared", "v1")
        try group.syncAll()
        let left = try group[1].cli(["leave"])
        #expect(left.status == 0, "\(left.output)")
        #expect(try group[1].secret("shared") == "v1")  // local items stay
        let after = try group[1].cli(["now"])
        #expect(after.status != 0)
        #expect(after.output.contains("not in a sync group"))
        #expect(try group.server.sql("SELECT max(epoch) FROM sync_groups") == "2")
        try group[0].add("after-leave", "x")
        try group[0].syncNow()
    }
}

extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self.init(bytes)
    }
}
#endif
