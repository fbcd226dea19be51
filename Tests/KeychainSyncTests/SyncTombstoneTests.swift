#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
@testable import KeychainSync
import KeychainTestSupport
import Testing

/// Deletes travel as tombstones and are collected once every approved device has pulled them
/// (SyncEngine+Tombstones, docs/sync.md "Deletes and their collection").
@Suite("Sync: tombstone collection", .serialized)
struct SyncTombstoneTests {
    static func tombstones(_ server: PostgresServer) throws -> Int {
        Int(try server.sql("SELECT count(*) FROM sync_records WHERE tombstone")) ?? -1
    }

    static func records(_ server: PostgresServer) throws -> Int {
        Int(try server.sql("SELECT count(*) FROM sync_records")) ?? -1
    }

    @Test("Three devices: a tombstone stays until the last device has pulled it, is then collected, and nothing comes back")
    func collectedAfterAllPulled() throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("doomed", "v1")
        try group[0].add("kept", "stays")
        try group.syncAll()
        #expect(try group[2].secret("doomed") == "v1")

        // device2 edits the item offline, before the delete: the delete is newer and must win.
        try group[2].update("doomed", "older offline edit")
        Thread.sleep(forTimeInterval: 0.01)
        try group[0].delete("doomed")
        try group[0].syncNow()
        #expect(try SyncTombstoneTests.tombstones(group.server) == 1)
        try group[1].syncNow()
        #expect(try SyncTombstoneTests.tombstones(group.server) == 1, "device2 has not pulled the delete yet")
        #expect(try group[1].secret("doomed") == nil)

        // device2 pulls the tombstone (which wins over its older edit) and, having pulled it last,
        // collects it in the same round.
        let last = try group[2].syncNow()
        #expect(last.contains("collected 1"), "\(last)")
        #expect(try SyncTombstoneTests.tombstones(group.server) == 0)
        #expect(try SyncTombstoneTests.records(group.server) == 1)
        try group.syncAll()
        for device in group.devices {
            #expect(try device.secret("doomed") == nil, "\(device.name)")
            #expect(try device.secret("kept") == "stays", "\(device.name)")
        }
        #expect(try SyncTombstoneTests.records(group.server) == 1, "no device pushed the deleted item back")

        // A re-add after the collection writes a fresh record (the old one is gone) and reaches all.
        Thread.sleep(forTimeInterval: 0.01)
        try group[1].add("doomed", "back again")
        let readd = try group[1].syncNow()
        #expect(readd.contains("pushed 1") && readd.contains("conflicts 0"), "\(readd)")
        try group.syncAll()
        for device in group.devices { #expect(try device.secret("doomed") == "back again", "\(device.name)") }
    }

    @Test("A device that stays away holds collection back until it is removed; removed, it brings nothing back")
    func offlineDeviceRemoved() async throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("doomed", "v1")
        try group.syncAll()
        // device2 goes away with the item; the other two delete and sync many times.
        try group[1].delete("doomed")
        for _ in 0..<2 {
            try group[1].syncNow()
            try group[0].syncNow()
        }
        #expect(try group[0].secret("doomed") == nil)
        #expect(try SyncTombstoneTests.tombstones(group.server) == 1, "device2 has not pulled it: the tombstone must stay")

        let fingerprint = try await group[2].engine().deviceFingerprint()
        let removed = try group[0].cli(["remove-device", fingerprint])
        #expect(removed.status == 0, "\(removed.output)")
        let collected = try group[0].syncNow()
        #expect(collected.contains("collected 1"), "\(collected)")
        #expect(try SyncTombstoneTests.records(group.server) == 0)

        // device2 comes back with the item: it is no longer a member, so it writes nothing.
        let back = try group[2].cli(["now"])
        #expect(back.status != 0 && back.output.contains("removed"), "\(back.output)")
        #expect(try group[2].secret("doomed") == "v1")
        try group[0].syncNow()
        try group[1].syncNow()
        #expect(try SyncTombstoneTests.records(group.server) == 0)
        #expect(try group[0].secret("doomed") == nil && group[1].secret("doomed") == nil)
    }
}

extension SyncTombstoneTests {
    @Test("A database at schema 1 is brought to the newest schema by the first client, data kept")
    func schemaUpgrade() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        // Schema 1 as an older client left it, with a group row in it.
        try server.sql("CREATE TABLE sync_schema_version (version integer NOT NULL)")
        for statement in ServerSchema.migrations[1] ?? [] { try server.sql(statement) }
        try server.sql("INSERT INTO sync_schema_version VALUES (1)")
        try server.sql("INSERT INTO sync_groups (group_id, epoch, revision) VALUES ('old', 1, 7)")

        let device = try SyncDevice("upgrader")
        // The group is there, so a device joins it only by its fingerprint; the schema is
        // upgraded when it connects, before that is decided.
        let joined = try device.cli(["join", server.url])
        #expect(joined.status != 0 && joined.output.contains("--group"), "\(joined.output)")
        #expect(try server.sql("SELECT version FROM sync_schema_version") == String(ServerSchema.version))
        #expect(try server.sql("SELECT revision FROM sync_groups WHERE group_id = 'old'") == "7")
        #expect(try server.sql("SELECT count(*) FROM information_schema.columns WHERE column_name IN ('tombstone', 'pulled_revision', 'signing_key')") == "3")
    }
}
#endif
