#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation
import KeychainStore
import PostgresNIO

/// Groups made before the roster existed (docs/sync.md, "Upgrading a group"). Their members
/// were whatever the server listed, so nothing of that list is carried over: the first member
/// to upgrade founds the roster with itself as its only member, under a new identity and a new
/// epoch, and drops the old records (every item they held is still in the members' keychains,
/// and each member pushes its items again once it is admitted). Every other device is told to
/// join again by the group's fingerprint, and is approved by fingerprint like any new device.
extension SyncEngine {
    func upgradeLegacyState(_ connection: PostgresConnection) async throws -> GroupView {
        let group = try groupID()
        guard let urlText = try state.string(Setting.url), let oldDevice = try state.string(Setting.device) else { throw SyncError.notJoined }
        let me = DeviceKeys(signing: Curve25519.Signing.PrivateKey(), agreement: Curve25519.KeyAgreement.PrivateKey())
        let identity = me.identity
        let epochKey = SymmetricKey(size: .bits256)
        let (founding, manifest): (RosterStatement, Manifest) = try await transaction(connection) {
            try await connection.query("SELECT pg_advisory_xact_lock(7273616776)", logger: logger)
            let (epoch, revision) = try await lockGroup(connection)
            var first: Data?
            for try await encoded in try await connection.query(
                "SELECT statement FROM sync_roster WHERE group_id = \(group) AND seq = 1", logger: logger).decode(Data.self) {
                first = encoded
            }
            if let first {
                let fingerprint = (try? RosterStatement(encoded: first)).map { Roster.groupFingerprint(founding: $0) }
                throw SyncError.rosterReestablished(groupFingerprint: fingerprint)
            }
            var name = "upgraded device"
            for try await oldName in try await connection.query(
                "SELECT name FROM sync_devices WHERE group_id = \(group) AND device_id = \(oldDevice)", logger: logger).decode(String.self) {
                name = RosterStatement.bounded(oldName)
            }
            let newEpoch = epoch + 1
            let founding = try RosterStatement(groupID: group, after: nil, kind: .found, subject: identity, subjectName: name,
                                               epoch: newEpoch, manifestPin: 1, signedBy: me)
            let keys = GroupKeys(groupID: group, epochKeys: [newEpoch: epochKey])
            let manifest = Manifest(version: 1, epoch: newEpoch, coveredRevision: revision, entries: [:])
            try await connection.query("DELETE FROM sync_records WHERE group_id = \(group)", logger: logger)
            try await connection.query("UPDATE sync_devices SET status = 'removed' WHERE group_id = \(group)", logger: logger)
            try await connection.query(
                """
                INSERT INTO sync_devices (group_id, device_id, public_key, signing_key, name, status, last_seen)
                VALUES (\(group), \(identity.id), \(identity.agreementKey), \(identity.signingKey), \(name), 'approved', now())
                """, logger: logger)
            try await insertStatement(founding, connection)
            try await insertShare(try KeyShare(key: epochKey, epoch: newEpoch, groupID: group, to: identity, by: me), connection)
            try await writeManifest(manifest, replacing: nil, keys: keys, group: group, connection)
            try await connection.query("UPDATE sync_groups SET epoch = \(newEpoch) WHERE group_id = \(group)", logger: logger)
            return (founding, manifest)
        }
        // The old state goes whole: its keys, its record states (the new epoch has new record ids).
        try saveIdentity(group: group, keys: me, urlText: urlText, groupFingerprint: Roster.groupFingerprint(founding: founding)) {
            () throws(KeychainStoreError) in
            try storeStatement(founding)
            try state.setSecret(Setting.epochKeyPrefix + String(founding.epoch), epochKey.withUnsafeBytes { Data($0) })
            try state.setInteger(Setting.manifestVersion, manifest.version)
        }
        return GroupView(roster: try localRoster(), keys: GroupKeys(groupID: group, epochKeys: [founding.epoch: epochKey]))
    }
}
#endif
