#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
package import Foundation
import KeychainStore
import PostgresNIO

/// Joining, approving, removing and leaving (docs/sync.md, "Trust"). Every change of the
/// group's members is a roster statement signed by a member; the server's `sync_devices` table
/// only carries requests to join and what devices report about themselves.
extension SyncEngine {
    /// What `join` did.
    package enum JoinOutcome: Sendable, Equatable {
        /// This device created the group and is its first member.
        case createdGroup(deviceFingerprint: String, groupFingerprint: String)
        /// The group existed: this device waits for a member to approve it.
        case pending(deviceFingerprint: String)
        /// This keychain was in the group already.
        case alreadyJoined(deviceFingerprint: String)
    }

    /// Joins the group in the database at `urlText`, creating it when the database has none.
    /// An existing group is joined only when `groupFingerprint` names it (its members show it
    /// in `sync status`): the server cannot pass off a group of its own.
    package func join(urlText: String, deviceName: String, groupFingerprint: String? = nil) async throws -> JoinOutcome {
        if try state.string(Setting.group) != nil, try !isLegacyState() {
            return .alreadyJoined(deviceFingerprint: try deviceFingerprint())
        }
        var expected: String?
        if let groupFingerprint {
            guard let normalized = Fingerprint.normalized(groupFingerprint) else {
                throw SyncError.noSuchDevice("\(groupFingerprint) is not a group fingerprint")
            }
            expected = normalized
        }
        let url = try SyncServerURL(urlText)
        let wanted = expected
        return try await withConnection(to: url) { [self] connection in
            try await join(connection, urlText: urlText, deviceName: deviceName, expected: wanted)
        }
    }

    private func join(_ connection: PostgresConnection, urlText: String, deviceName: String, expected: String?) async throws -> JoinOutcome {
        let me = DeviceKeys(signing: Curve25519.Signing.PrivateKey(), agreement: Curve25519.KeyAgreement.PrivateKey())
        let identity = me.identity
        let name = RosterStatement.bounded(deviceName)
        return try await transaction(connection) {
            try await connection.query("SELECT pg_advisory_xact_lock(7273616776)", logger: logger)
            var existing: String?
            for try await group in try await connection.query("SELECT group_id FROM sync_groups ORDER BY created_at LIMIT 1",
                                                             logger: logger).decode(String.self) {
                existing = group
            }
            if let existing {
                guard let expected else { throw SyncError.groupFingerprintNeeded }
                var founding: RosterStatement?
                for try await encoded in try await connection.query(
                    "SELECT statement FROM sync_roster WHERE group_id = \(existing) AND seq = 1", logger: logger).decode(Data.self) {
                    founding = try? RosterStatement(encoded: encoded)
                }
                // Verified as the first statement of a chain: signed by the device it founds.
                let roster = founding.flatMap { try? Roster(groupID: existing, statements: [$0]) }
                guard let found = roster?.groupFingerprint, found == expected else {
                    throw SyncError.wrongGroup(expected: expected, found: roster?.groupFingerprint)
                }
                try await connection.query(
                    """
                    INSERT INTO sync_devices (group_id, device_id, public_key, signing_key, name, status, last_seen)
                    VALUES (\(existing), \(identity.id), \(identity.agreementKey), \(identity.signingKey), \(name), 'pending', now())
                    """, logger: logger)
                try saveIdentity(group: existing, keys: me, urlText: urlText, groupFingerprint: expected)
                return .pending(deviceFingerprint: identity.fingerprint)
            }
            if let expected { throw SyncError.wrongGroup(expected: expected, found: nil) }
            // The first device: a new group, its founding statement, the first epoch's key and an empty manifest.
            let group = SymmetricKey(size: .bits128).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
            let founding = try RosterStatement(groupID: group, after: nil, kind: .found, subject: identity, subjectName: name, epoch: 1,
                                               manifestPin: 1, signedBy: me)
            let epochKey = SymmetricKey(size: .bits256)
            let keys = GroupKeys(groupID: group, epochKeys: [1: epochKey])
            let manifest = Manifest(version: 1, epoch: 1, coveredRevision: 0, entries: [:])
            try await connection.query("INSERT INTO sync_groups (group_id, epoch, revision) VALUES (\(group), 1, 0)", logger: logger)
            try await connection.query(
                """
                INSERT INTO sync_devices (group_id, device_id, public_key, signing_key, name, status, last_seen)
                VALUES (\(group), \(identity.id), \(identity.agreementKey), \(identity.signingKey), \(name), 'approved', now())
                """, logger: logger)
            try await insertStatement(founding, connection)
            try await insertShare(try KeyShare(key: epochKey, epoch: 1, groupID: group, to: identity, by: me), connection)
            try await writeManifest(manifest, replacing: nil, keys: keys, group: group, connection)
            let groupFingerprint = Roster.groupFingerprint(founding: founding)
            try saveIdentity(group: group, keys: me, urlText: urlText, groupFingerprint: groupFingerprint) { () throws(KeychainStoreError) in
                try storeStatement(founding)
                try state.setSecret(Setting.epochKeyPrefix + "1", epochKey.withUnsafeBytes { Data($0) })
                try state.setInteger(Setting.manifestVersion, manifest.version)
            }
            return .createdGroup(deviceFingerprint: identity.fingerprint, groupFingerprint: groupFingerprint)
        }
    }

    /// Writes a new identity into the state file, replacing whatever an older version kept there.
    func saveIdentity(group: String, keys: DeviceKeys, urlText: String, groupFingerprint: String,
                              more: () throws(KeychainStoreError) -> Void = {}) throws {
        if try isLegacyState() { try state.reset() }
        try state.transaction { () throws(KeychainStoreError) in
            try state.setString(Setting.group, group)
            try state.setString(Setting.device, keys.identity.id)
            try state.setSecret(Setting.devicePrivateKey, keys.agreement.rawRepresentation)
            try state.setSecret(Setting.deviceSigningKey, keys.signing.rawRepresentation)
            try state.setString(Setting.groupFingerprint, groupFingerprint)
            try state.setString(Setting.url, urlText)
            try more()
        }
    }

    func insertStatement(_ statement: RosterStatement, _ connection: PostgresConnection) async throws {
        var written = 0
        for try await _ in try await connection.query(
            """
            INSERT INTO sync_roster (group_id, seq, statement) VALUES (\(statement.groupID), \(statement.sequence), \(statement.encoded))
            ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger) { written += 1 }
        guard written == 1 else { throw SyncError.server("another device changed the group's members at the same time; try again") }
    }

    func insertShare(_ share: KeyShare, _ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO sync_key_shares (group_id, recipient, epoch, share) VALUES (\(share.groupID), \(share.recipient), \(share.epoch), \(share.encoded))
            """, logger: logger)
    }

    /// A device of the group: a member or a removed one as the verified roster names it, or a
    /// device that asked to join (its keys from its request, its name as it gave it).
    package struct Device: Sendable, Equatable {
        package let id: String
        /// As the device gave it: print it through ``TerminalText``.
        package let name: String
        package let fingerprint: String
        /// `approved` (a member), `removed`, or `pending` (asked to join, not admitted).
        package let status: String
        package let lastSeen: Date?
    }

    /// A request to join that matches `fingerprint`, computed here from the request's keys.
    private func pendingRequest(_ connection: PostgresConnection, fingerprint: String, roster: Roster) async throws
        -> (identity: DeviceIdentity, name: String) {
        var matches: [(DeviceIdentity, String)] = []
        for (id, identity, name, _, _) in try await requests(connection) where identity.fingerprint == fingerprint {
            if roster.everAdmitted[id] != nil { continue }
            matches.append((identity, name))
        }
        guard matches.count == 1 else { throw SyncError.noSuchDevice(fingerprint) }
        return matches[0]
    }

    /// The server's device rows whose id matches their keys (any other is refused as forged).
    private func requests(_ connection: PostgresConnection) async throws
        -> [(id: String, identity: DeviceIdentity, name: String, status: String, lastSeen: Date?)] {
        var rows: [(String, DeviceIdentity, String, String, Date?)] = []
        for try await (id, agreement, signing, name, status, seen) in try await connection.query(
            """
            SELECT device_id, public_key, signing_key, name, status, last_seen FROM sync_devices
            WHERE group_id = \(try groupID()) AND signing_key IS NOT NULL ORDER BY name, device_id
            """, logger: logger).decode((String, Data, Data, String, String, Date?).self) {
            guard let identity = try? DeviceIdentity(signingKey: signing, agreementKey: agreement), identity.id == id else { continue }
            rows.append((id, identity, name, status, seen))
        }
        return rows
    }

    /// The group's devices: members and removed devices from the verified roster, then the
    /// requests to join that no member has decided on.
    func devices(_ connection: PostgresConnection, roster: Roster) async throws -> [Device] {
        let rows = try await requests(connection)
        let seen = Dictionary(rows.map { ($0.id, $0.lastSeen) }, uniquingKeysWith: { first, _ in first })
        var devices: [Device] = roster.everAdmitted.values.sorted { $0.admittedBy < $1.admittedBy }.map { member in
            let id = member.identity.id
            return Device(id: id, name: member.name, fingerprint: member.identity.fingerprint,
                          status: roster.members[id] != nil ? "approved" : "removed", lastSeen: seen[id] ?? nil)
        }
        for row in rows where roster.everAdmitted[row.id] == nil && row.status == "pending" {
            devices.append(Device(id: row.id, name: row.name, fingerprint: row.identity.fingerprint, status: "pending", lastSeen: row.lastSeen))
        }
        return devices
    }

    /// Lets a pending device in: finds the request whose keys have `fingerprint` (computed here,
    /// never taken from the server), shows it to `confirm`, and only then signs its admission
    /// and shares the current group key with it.
    /// - Returns: the approved device.
    package func approve(_ fingerprint: String, confirm: @escaping @Sendable (Device) async -> Bool = { _ in true }) async throws -> Device {
        guard let wanted = Fingerprint.normalized(fingerprint) else { throw SyncError.noSuchDevice(fingerprint) }
        return try await withConnection { [self] connection in
            let view = try await refresh(connection)
            let candidate = try await pendingRequest(connection, fingerprint: wanted, roster: view.roster)
            let device = Device(id: candidate.identity.id, name: candidate.name, fingerprint: candidate.identity.fingerprint,
                                status: "pending", lastSeen: nil)
            guard await confirm(device) else { throw SyncError.notConfirmed }
            let me = try deviceKeys()
            let group = try groupID()
            let statement: RosterStatement = try await transaction(connection) {
                _ = try await lockGroup(connection)
                // The roster may have moved while the person was deciding.
                let view = try await refresh(connection)
                let again = try await pendingRequest(connection, fingerprint: wanted, roster: view.roster)
                guard again.identity == candidate.identity, let key = view.keys.epochKeys[view.roster.epoch] else {
                    throw SyncError.noSuchDevice(fingerprint)
                }
                let manifest = try await readManifest(connection, view)
                let statement = try RosterStatement(groupID: group, after: view.roster.head, kind: .admit, subject: again.identity,
                                                    subjectName: again.name, epoch: view.roster.epoch, manifestPin: manifest.version,
                                                    signedBy: me)
                try await insertStatement(statement, connection)
                try await insertShare(try KeyShare(key: key, epoch: view.roster.epoch, groupID: group, to: again.identity, by: me),
                                      connection)
                try await connection.query(
                    "UPDATE sync_devices SET status = 'approved' WHERE group_id = \(group) AND device_id = \(again.identity.id)", logger: logger)
                return statement
            }
            try state.transaction { () throws(KeychainStoreError) in try storeStatement(statement) }
            return Device(id: device.id, name: device.name, fingerprint: device.fingerprint, status: "approved", lastSeen: nil)
        }
    }

    /// Takes the group's row lock for the rest of the transaction; returns its epoch and revision.
    func lockGroup(_ connection: PostgresConnection) async throws -> (epoch: Int64, revision: Int64) {
        var result: (Int64, Int64)?
        for try await row in try await connection.query(
            "SELECT epoch, revision FROM sync_groups WHERE group_id = \(try groupID()) FOR UPDATE", logger: logger).decode((Int64, Int64).self) {
            result = row
        }
        guard let result else { throw SyncError.server("the group's row is missing") }
        return result
    }

    /// Removes a member and re-keys the group so that it reads nothing written afterwards; a
    /// device that only asked to join has its request marked removed.
    package func removeDevice(_ fingerprint: String) async throws -> Device {
        guard let wanted = Fingerprint.normalized(fingerprint) else { throw SyncError.noSuchDevice(fingerprint) }
        return try await withConnection { [self] connection in
            let view = try await refresh(connection)
            if let member = view.roster.members.values.first(where: { $0.identity.fingerprint == wanted }) {
                try await rekey(connection, removing: member.identity.id)
                return Device(id: member.identity.id, name: member.name, fingerprint: wanted, status: "removed", lastSeen: nil)
            }
            let request = try await pendingRequest(connection, fingerprint: wanted, roster: view.roster)
            try await connection.query(
                "UPDATE sync_devices SET status = 'removed' WHERE group_id = \(try groupID()) AND device_id = \(request.identity.id)",
                logger: logger)
            return Device(id: request.identity.id, name: request.name, fingerprint: wanted, status: "removed", lastSeen: nil)
        }
    }

    /// This device leaves its group: the others are re-keyed without it, and its sync state is
    /// forgotten. The keychain's items stay as they are.
    package func leave() async throws {
        if try !isLegacyState() {
            let me = try deviceID()
            try await withConnection { [self] connection in
                do {
                    _ = try await refresh(connection)
                    try await rekey(connection, removing: me)
                } catch SyncError.pendingApproval {
                    try await connection.query(
                        "UPDATE sync_devices SET status = 'removed' WHERE group_id = \(try groupID()) AND device_id = \(me)", logger: logger)
                } catch SyncError.removed {}
            }
        }
        try state.reset()
    }

    /// A new epoch without `removed`: a removal statement signed by this device, a fresh group
    /// key shared with every remaining member of the verified roster (never with a device the
    /// server lists), and every current record sealed again under the new epoch's key and id,
    /// with a new manifest, all in one transaction with the group's row locked, so no record
    /// written under the old key can appear afterwards.
    func rekey(_ connection: PostgresConnection, removing removed: String) async throws {
        let me = try deviceKeys()
        let group = try groupID()
        let newKey = SymmetricKey(size: .bits256)
        let (statement, manifest): (RosterStatement, Manifest) = try await transaction(connection) {
            let (epoch, revision) = try await lockGroup(connection)
            var view = try await refresh(connection)
            guard epoch == view.roster.epoch else { throw SyncError.untrustedServer("the group's row is in epoch \(epoch), its roster in \(view.roster.epoch)") }
            guard let subject = view.roster.members[removed] else { throw SyncError.noSuchDevice(removed) }
            let current = try await readManifest(connection, view)
            guard current.coveredRevision <= revision else { throw SyncError.untrustedServer("the group's manifest is ahead of its records") }
            let next = epoch + 1
            let statement = try RosterStatement(groupID: group, after: view.roster.head, kind: .remove, subject: subject.identity,
                                                subjectName: subject.name, epoch: next, manifestPin: current.version + 1, signedBy: me)
            try view.roster.append(statement)
            view.keys.add(epoch: next, key: newKey)
            try await insertStatement(statement, connection)
            for member in view.roster.members.values {
                try await insertShare(try KeyShare(key: newKey, epoch: next, groupID: group, to: member.identity, by: me), connection)
            }
            var records: [(recordID: Data, revision: Int64, epoch: Int64, ciphertext: Data, tombstone: Bool)] = []
            for try await row in try await connection.query(
                "SELECT record_id, revision, epoch, ciphertext, tombstone FROM sync_records WHERE group_id = \(group)", logger: logger)
                .decode((Data, Int64, Int64, Data, Bool).self) {
                records.append(row)
            }
            try await connection.query("DELETE FROM sync_records WHERE group_id = \(group)", logger: logger)
            var entries: [Data: Int64] = [:]
            for record in records {
                // Only the group's current records move to the new epoch: one that is stale by
                // the manifest, or does not open (tampered with), is dropped, and the device that
                // holds its item pushes it again.
                guard record.epoch == epoch, current.isCurrent(recordID: record.recordID, revision: record.revision) == true,
                      let plaintext = try view.keys.open(record.ciphertext, recordID: record.recordID, epoch: epoch, revision: record.revision),
                      let item = try? SyncItemCodec.decode(plaintext),
                      try view.keys.recordID(of: item, epoch: epoch) == record.recordID
                else { continue }
                let recordID = try view.keys.recordID(of: item, epoch: next)
                let sealed = try view.keys.seal(plaintext, recordID: recordID, epoch: next, revision: record.revision)
                try await connection.query(
                    """
                    INSERT INTO sync_records (group_id, record_id, revision, epoch, ciphertext, tombstone)
                    VALUES (\(group), \(recordID), \(record.revision), \(next), \(sealed), \(record.tombstone))
                    """, logger: logger)
                entries[recordID] = record.revision
            }
            let manifest = Manifest(version: current.version + 1, epoch: next, coveredRevision: revision, entries: entries)
            try await writeManifest(manifest, replacing: current.version, keys: view.keys, group: group, connection)
            try await connection.query("UPDATE sync_groups SET epoch = \(next) WHERE group_id = \(group)", logger: logger)
            try await connection.query(
                "UPDATE sync_devices SET status = 'removed' WHERE group_id = \(group) AND device_id = \(removed)", logger: logger)
            return (statement, manifest)
        }
        try state.transaction { () throws(KeychainStoreError) in try storeStatement(statement) }
        if removed != me.identity.id {
            try storeKey(epoch: statement.epoch, key: newKey)
            try adoptManifest(manifest)
            var keys = try heldKeys() ?? GroupKeys(groupID: group)
            keys.add(epoch: statement.epoch, key: newKey)
            try renameRecordStates(from: statement.epoch - 1, to: statement.epoch, keys: keys)
        }
    }
}
#endif
