#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation
import KeychainStore
@testable import KeychainSync
import KeychainTestSupport
import Testing

/// The attacks an audit ran against sync's trust in its server, replayed against a real
/// PostgreSQL server (docs/sync.md, "Threat model"). Before the roster, each one worked: the
/// server's device list decided who received the group key, `approve` matched ids the server
/// chose, any holder of the record-id key could hand members an epoch key, a new device read
/// whatever copy of the records the server showed it, and device names reached the terminal raw.
@Suite("Sync: a hostile server and a removed device", .serialized)
struct SyncServerAttackTests {
    /// Keys an attacker makes for itself.
    static func attackerKeys() -> DeviceKeys {
        DeviceKeys(signing: Curve25519.Signing.PrivateKey(), agreement: Curve25519.KeyAgreement.PrivateKey())
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    /// Adds a device row of the server's own to the group, with `status`.
    static func plantDevice(_ server: PostgresServer, _ keys: DeviceKeys, id: String? = nil, name: String, status: String) throws {
        let identity = keys.identity
        try server.sql("""
            INSERT INTO sync_devices (group_id, device_id, public_key, signing_key, name, status, last_seen)
            SELECT group_id, '\(id ?? identity.id)', decode('\(hex(identity.agreementKey))', 'hex'), decode('\(hex(identity.signingKey))', 'hex'),
                   '\(name)', '\(status)', now() FROM sync_groups
            """)
    }

    /// The roster as the server holds it, verified.
    static func serverRoster(_ server: PostgresServer) throws -> Roster {
        let group = try server.sql("SELECT group_id FROM sync_groups")
        let rows = try server.sql("SELECT encode(statement, 'hex') FROM sync_roster ORDER BY seq").split(separator: "\n")
        return try Roster(groupID: group, statements: try rows.map { try RosterStatement(encoded: Data(hex: String($0))) })
    }

    static func shareRecipients(_ server: PostgresServer) throws -> [String] {
        try server.sql("SELECT recipient FROM sync_key_shares ORDER BY recipient").split(separator: "\n").map(String.init)
    }

    @Test("A device row the server adds as approved receives no group key, not even from a re-key")
    func serverAddsItsOwnDevice() async throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("before", "secret before")
        try group.syncAll()
        let attacker = SyncServerAttackTests.attackerKeys()
        try SyncServerAttackTests.plantDevice(group.server, attacker, name: "device1", status: "approved")

        // An ordinary removal: the re-key wraps the new key to the members the roster names.
        let removed = try group[0].cli(["remove-device", try await group[2].engine().deviceFingerprint()])
        #expect(removed.status == 0, "\(removed.output)")
        try group[0].add("after", "secret after")
        try group[0].syncNow()
        try group[1].syncNow()
        #expect(try group[1].secret("after") == "secret after")

        let recipients = try SyncServerAttackTests.shareRecipients(group.server)
        #expect(!recipients.contains(attacker.identity.id))
        let members = Set(try SyncServerAttackTests.serverRoster(group.server).members.keys)
        #expect(Set(recipients).isSubset(of: members.union([try await group[2].engine().deviceID()])))
        // The server's device is not listed as a member anywhere a person looks.
        let status = try group[0].cli(["status"]).output
        #expect(!status.contains(attacker.identity.fingerprint), "\(status)")
    }

    @Test("A removed device that the server marks approved again reads nothing written after its removal")
    func removedDeviceReinstatedByServer() async throws {
        let group = try SyncGroupFixture(devices: 3)
        try group.syncAll()
        let victim = try await group[2].engine().deviceID()
        #expect(try group[0].cli(["remove-device", try await group[2].engine().deviceFingerprint()]).status == 0)
        try group.server.sql("UPDATE sync_devices SET status = 'approved' WHERE device_id = '\(victim)'")
        try group[0].add("after", "not for the removed device")
        try group[0].syncNow()

        let refused = try group[2].cli(["now"])
        #expect(refused.status != 0 && refused.output.contains("removed"), "\(refused.output)")
        #expect(try group[2].secret("after") == nil)
        // The re-key happens again (another removal): still nothing for it.
        #expect(try group[0].cli(["remove-device", try await group[1].engine().deviceFingerprint()]).status == 0)
        #expect(try group.server.sql("SELECT max(epoch) FROM sync_key_shares WHERE recipient = '\(victim)'") == "1")
    }

    @Test("approve admits the device whose keys have the fingerprint, never a row the server names after it")
    func serverNamesItsRowAfterTheFingerprint() async throws {
        let group = try SyncGroupFixture(devices: 1)
        let joiner = try SyncDevice("joiner")
        let joined = try joiner.cli(["join", group.server.url, "--name", "laptop", "--group", group.groupFingerprint])
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")
        let attacker = SyncServerAttackTests.attackerKeys()
        // The server's pending row, its id the fingerprint the joining device printed.
        try SyncServerAttackTests.plantDevice(group.server, attacker, id: fingerprint, name: "laptop", status: "pending")

        let approved = try group[0].cli(["approve", fingerprint])
        #expect(approved.status == 0, "\(approved.output)")
        let joinerID = try await joiner.engine().deviceID()
        #expect(try SyncServerAttackTests.shareRecipients(group.server).contains(joinerID))
        #expect(!(try SyncServerAttackTests.shareRecipients(group.server)).contains(fingerprint))
        try group[0].add("shared", "for the laptop")
        try group[0].syncNow()
        try joiner.syncNow()
        #expect(try joiner.secret("shared") == "for the laptop")
    }

    @Test("approve refuses a request whose keys the server swapped for its own")
    func serverSwapsTheRequestsKeys() async throws {
        let group = try SyncGroupFixture(devices: 1)
        let joiner = try SyncDevice("joiner")
        let joined = try joiner.cli(["join", group.server.url, "--name", "laptop", "--group", group.groupFingerprint])
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")
        let attacker = SyncServerAttackTests.attackerKeys()
        // The genuine row now carries the server's keys; a second row too, under their own id.
        try group.server.sql("""
            UPDATE sync_devices SET public_key = decode('\(SyncServerAttackTests.hex(attacker.identity.agreementKey))', 'hex'),
                signing_key = decode('\(SyncServerAttackTests.hex(attacker.identity.signingKey))', 'hex')
            WHERE device_id = '\(try await joiner.engine().deviceID())'
            """)
        try SyncServerAttackTests.plantDevice(group.server, attacker, name: "laptop", status: "pending")

        let approved = try group[0].cli(["approve", fingerprint])
        #expect(approved.status != 0 && approved.output.contains("no such device"), "\(approved.output)")
        #expect(try SyncServerAttackTests.shareRecipients(group.server) == [try await group[0].engine().deviceID()])
    }

    @Test("A removed device cannot hand the members an epoch key of its choosing")
    func removedDeviceChoosesTheEpochKey() async throws {
        let group = try SyncGroupFixture(devices: 3)
        try group[0].add("before", "v1")
        try group.syncAll()
        let outcast = try await group[2].engine().deviceKeys()
        #expect(try group[0].cli(["remove-device", outcast.identity.fingerprint]).status == 0)
        try group[1].syncNow()

        // What the removed device makes, knowing the database: a new epoch whose key it chose,
        // shared to every member and signed by itself, its roster statement, and the group moved on.
        let roster = try SyncServerAttackTests.serverRoster(group.server)
        let chosen = SymmetricKey(size: .bits256)
        let epoch = roster.epoch + 1
        let statement = try RosterStatement(groupID: roster.groupID, after: roster.head, kind: .remove,
                                            subject: try await group[1].engine().deviceKeys().identity, subjectName: "device1",
                                            epoch: epoch, manifestPin: 1, signedBy: outcast)
        try group.server.sql("INSERT INTO sync_roster VALUES ('\(roster.groupID)', \(statement.sequence), decode('\(SyncServerAttackTests.hex(statement.encoded))', 'hex'))")
        for member in roster.members.values {
            let share = try KeyShare(key: chosen, epoch: epoch, groupID: roster.groupID, to: member.identity, by: outcast)
            try group.server.sql("INSERT INTO sync_key_shares VALUES ('\(roster.groupID)', '\(share.recipient)', \(epoch), decode('\(SyncServerAttackTests.hex(share.encoded))', 'hex'))")
        }
        // And a manifest of the new epoch under that key, as a member's re-key would write one.
        let version = Int64(try group.server.sql("SELECT version FROM sync_manifests"))! + 1
        let covered = Int64(try group.server.sql("SELECT revision FROM sync_groups"))!
        let forgedManifest = try Manifest(version: version, epoch: epoch, coveredRevision: covered, entries: [:])
            .sealed(with: GroupKeys(groupID: roster.groupID, epochKeys: [epoch: chosen]))
        try group.server.sql("UPDATE sync_manifests SET version = \(version), epoch = \(epoch), body = decode('\(SyncServerAttackTests.hex(forgedManifest))', 'hex')")
        try group.server.sql("UPDATE sync_groups SET epoch = \(epoch)")

        // A member's next push seals nothing under it: the statement is refused, and so is the round.
        try group[0].update("before", "v2")
        let round = try group[0].cli(["now"])
        #expect(round.status != 0 && round.output.contains("cannot be trusted"), "\(round.output)")
        let sealedUnderChosen = try group.server.sql("SELECT count(*) FROM sync_records WHERE epoch = \(epoch)")
        #expect(sealedUnderChosen == "0")
        let keys = GroupKeys(groupID: roster.groupID, epochKeys: [epoch: chosen])
        for row in try group.server.sql("SELECT encode(record_id, 'hex') || '|' || revision || '|' || encode(ciphertext, 'hex') FROM sync_records")
            .split(separator: "\n") {
            let parts = row.split(separator: "|").map(String.init)
            #expect(try keys.open(Data(hex: parts[2]), recordID: Data(hex: parts[0]), epoch: epoch, revision: Int64(parts[1])!) == nil)
        }

        // Shares alone, without a statement (the audit's form of the attack): refused as well.
        try group.server.sql("DELETE FROM sync_roster WHERE seq = \(statement.sequence)")
        let sharesOnly = try group[0].cli(["now"])
        #expect(sharesOnly.status != 0 && sharesOnly.output.contains("cannot be trusted"), "\(sharesOnly.output)")
        #expect(try group.server.sql("SELECT count(*) FROM sync_records WHERE epoch = \(epoch)") == "0")
    }

    @Test("A new device refuses an old copy of the records the server puts back: no old password, no deleted item")
    func oldCopyShownToANewDevice() async throws {
        let group = try SyncGroupFixture(devices: 2)
        try group[0].add("rotated", "old password")
        try group[0].add("deleted", "deleted since")
        try group.syncAll()
        try group.server.sql("CREATE TABLE old_records AS SELECT * FROM sync_records")
        try group.server.sql("CREATE TABLE old_manifest AS SELECT * FROM sync_manifests")
        try await Task.sleep(nanoseconds: 10_000_000)
        try group[0].update("rotated", "new password")
        try group[0].delete("deleted")
        try group.syncAll()

        let newcomer = try SyncDevice("newcomer")
        let joined = try newcomer.cli(["join", group.server.url, "--name", "newcomer", "--group", group.groupFingerprint])
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")
        #expect(try group[0].cli(["approve", fingerprint]).status == 0)

        // The server puts the old records back, first with today's manifest, then with the old one too.
        try group.server.sql("DELETE FROM sync_records; INSERT INTO sync_records SELECT * FROM old_records")
        let withCurrentManifest = try newcomer.cli(["now"])
        #expect(withCurrentManifest.output.contains("replayed 2"), "\(withCurrentManifest.output)")
        #expect(try newcomer.secret("rotated") == nil && newcomer.secret("deleted") == nil)

        try group.server.sql("DELETE FROM sync_manifests; INSERT INTO sync_manifests SELECT * FROM old_manifest")
        let newcomerState = try SyncStateFile(at: SyncStateFile.location(forKeychain: newcomer.keychainURL), deviceKey: newcomer.deviceKey)
        try newcomerState.replaceRecordStates([:])
        try newcomerState.setInteger(SyncEngine.Setting.cursor, 0)
        let withOldManifest = try newcomer.cli(["now"])
        #expect(withOldManifest.status != 0 && withOldManifest.output.contains("older than version"), "\(withOldManifest.output)")
        #expect(try newcomer.secret("rotated") == nil && newcomer.secret("deleted") == nil)
        #expect(try newcomer.contents().isEmpty)
    }

    @Test("Device names chosen by the server reach the terminal without control characters, bounded")
    func hostileNames() throws {
        let group = try SyncGroupFixture(devices: 2)
        let erase = "\u{1b}[2J\u{1b}[1;1H\u{1b}]0;owned\u{07}"
        try group.server.sql("UPDATE sync_devices SET name = E'\\x1b[2J\\x1b[1;1Hevil\\x07' || repeat('x', 500)")
        let joiner = try SyncDevice("joiner")
        let joined = try joiner.cli(["join", group.server.url, "--name", erase + "laptop", "--group", group.groupFingerprint])
        let fingerprint = try #require(SyncDevice.fingerprint(in: joined.output), "\(joined.output)")

        let status = try group[0].cli(["status"]).output
        let approved = try group[0].cli(["approve", fingerprint]).output
        let after = try group[0].cli(["status"]).output
        for output in [status, approved, after] {
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7f }, "\(output.debugDescription)")
            #expect(output.split(separator: "\n").allSatisfy { $0.count < 240 }, "\(output)")
        }
        #expect(approved.contains("laptop") && approved.contains(fingerprint), "\(approved)")
    }
}
#endif
