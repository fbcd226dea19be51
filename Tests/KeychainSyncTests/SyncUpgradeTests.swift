#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation
import KeychainStore
@testable import KeychainSync
import KeychainTestSupport
import Testing

/// A group made before the roster existed (server schema 2), upgraded in place (docs/sync.md,
/// "Upgrading a group"): the first device to sync founds the roster, the others join again by
/// the group's fingerprint, and every item arrives.
@Suite("Sync: upgrading a group made before the roster", .serialized)
struct SyncUpgradeTests {
    /// A device's sync state as the version before the roster wrote it.
    static func writeLegacyState(_ device: SyncDevice, url: String, group: String, deviceID: String, recordIDKey: Data, epochKey: Data) throws {
        let state = try SyncStateFile(at: SyncStateFile.location(forKeychain: device.keychainURL), deviceKey: device.deviceKey)
        try state.transaction { () throws(KeychainStoreError) in
            try state.setString("url", url)
            try state.setString("group", group)
            try state.setString("device", deviceID)
            try state.setSecret("device.private-key", Curve25519.KeyAgreement.PrivateKey().rawRepresentation)
            try state.setSecret("key.record-id", recordIDKey)
            try state.setSecret("key.epoch.3", epochKey)
            try state.setInteger("cursor", 5)
        }
    }

    @Test("The first device to upgrade founds the roster; the other joins again by fingerprint; all items meet")
    func upgradeInPlace() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        try server.sql("CREATE TABLE sync_schema_version (version integer NOT NULL)")
        for version in [Int32(1), 2] {
            for statement in ServerSchema.migrations[version] ?? [] { try server.sql(statement) }
        }
        try server.sql("INSERT INTO sync_schema_version VALUES (2)")
        try server.sql("INSERT INTO sync_groups (group_id, epoch, revision) VALUES ('0123abcd', 3, 5)")
        for (id, name) in [("old-a", "desk"), ("old-b", "laptop"), ("old-server-planted", "planted")] {
            try server.sql("""
                INSERT INTO sync_devices (group_id, device_id, public_key, name, status) VALUES ('0123abcd', '\(id)', '\\x00', '\(name)', 'approved')
                """)
        }
        try server.sql("INSERT INTO sync_records (group_id, record_id, revision, epoch, ciphertext) VALUES ('0123abcd', '\\x01', 5, 3, '\\x02')")

        let a = try SyncDevice("a"), b = try SyncDevice("b")
        try a.add("shared", "same")
        try a.add("from-a", "a's")
        try b.add("from-b", "b's")
        let recordIDKey = Data(repeating: 7, count: 32), epochKey = Data(repeating: 9, count: 32)
        try SyncUpgradeTests.writeLegacyState(a, url: server.url, group: "0123abcd", deviceID: "old-a", recordIDKey: recordIDKey, epochKey: epochKey)
        try SyncUpgradeTests.writeLegacyState(b, url: server.url, group: "0123abcd", deviceID: "old-b", recordIDKey: recordIDKey, epochKey: epochKey)

        // a syncs first: it founds the roster, alone in it, and pushes its items again.
        let founded = try a.cli(["now"])
        #expect(founded.status == 0, "\(founded.output)")
        #expect(try server.sql("SELECT count(*) FROM sync_roster") == "1")
        #expect(try server.sql("SELECT count(*) FROM sync_records WHERE record_id = '\\x01'") == "0")
        let status = try a.cli(["status"]).output
        let group = try #require(SyncDevice.fingerprint(in: status, after: "group:"), "\(status)")
        #expect(status.contains("\"desk\"") && !status.contains("planted") && !status.contains("laptop"), "\(status)")

        // b is told to join again; it does, by the group's fingerprint, and a approves it.
        let told = try b.cli(["now"])
        #expect(told.status != 0 && told.output.contains("join again"), "\(told.output)")
        let joined = try b.cli(["join", server.url, "--name", "laptop", "--group", group])
        #expect(joined.status == 0, "\(joined.output)")
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")
        #expect(try a.cli(["approve", fingerprint]).status == 0)
        for _ in 0..<2 {
            try b.syncNow()
            try a.syncNow()
        }
        #expect(try a.contents() == ["shared": "same", "from-a": "a's", "from-b": "b's"])
        #expect(try b.contents() == ["shared": "same", "from-a": "a's", "from-b": "b's"])
        let line = { (text: String) in text.split(separator: "\n").first { $0.hasPrefix("roster:") } }
        #expect(line(try a.cli(["status"]).output) == line(try b.cli(["status"]).output))
    }
}
#endif
