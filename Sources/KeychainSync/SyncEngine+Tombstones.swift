#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import PostgresNIO

/// Collecting deletes (docs/sync.md, "Deletes and their collection").
///
/// A delete travels as a tombstone record, marked as one in the clear (`tombstone`), so that the
/// server can drop it once it has done its work. Each device tells the server, at the end of
/// every round, the revision it has pulled up to (`pulled_revision`); a tombstone whose revision
/// every approved device has pulled past has reached them all and is deleted. Pending and
/// removed devices do not count: a pending device has never held the item, and a removed one
/// can no longer write. An approved device that stays away holds collection back until it
/// returns or is removed, which is what keeps it from bringing a deleted item back.
extension SyncEngine {
    /// Records how far this device has pulled and deletes the tombstones every approved device
    /// has pulled past, taking them out of the group's manifest; returns how many were deleted.
    func reportPulledAndCollect(_ connection: PostgresConnection, view: GroupView) async throws -> Int {
        let group = try groupID(), device = try deviceID()
        let pulled = try state.integer(Setting.cursor) ?? 0
        // The members the verified roster names, whatever the server's rows say about them.
        let members = Array(view.roster.members.keys)
        let (collected, written): (Int, Manifest?) = try await transaction(connection) {
            try await connection.query(
                """
                UPDATE sync_devices SET pulled_revision = greatest(pulled_revision, \(pulled))
                WHERE group_id = \(group) AND device_id = \(device)
                """, logger: logger)
            var due = false
            for try await found in try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM sync_records WHERE group_id = \(group) AND tombstone AND revision <=
                    (SELECT coalesce(min(pulled_revision), 0) FROM sync_devices WHERE group_id = \(group) AND device_id = ANY(\(members))))
                """, logger: logger).decode(Bool.self) {
                due = found
            }
            guard due else { return (0, nil) }
            // The manifest changes with the records it lists, under the group's lock.
            _ = try await lockGroup(connection)
            var manifest = try await readManifest(connection, view)
            let previousVersion = manifest.version
            var collected = 0
            // READ COMMITTED re-checks each row it deletes: a tombstone that another device
            // replaces with a re-added item meanwhile is no longer a tombstone and stays.
            for try await (recordID, revision) in try await connection.query(
                """
                DELETE FROM sync_records WHERE group_id = \(group) AND tombstone AND revision <=
                    (SELECT coalesce(min(pulled_revision), 0) FROM sync_devices WHERE group_id = \(group) AND device_id = ANY(\(members)))
                RETURNING record_id, revision
                """, logger: logger).decode((Data, Int64).self) {
                collected += 1
                // An entry goes only with the very revision it lists: dropping one never lets an
                // older record through (a record the manifest does not list is refused).
                if manifest.entries[recordID] == revision { manifest.entries[recordID] = nil }
            }
            guard collected > 0 else { return (0, nil) }
            manifest.version += 1
            try await writeManifest(manifest, replacing: previousVersion, keys: view.keys, group: group, connection)
            return (collected, manifest)
        }
        if let written { try adoptManifest(written) }
        return collected
    }

    /// Whether an item is a delete's tombstone.
    static func isTombstone(_ item: StoredItem) -> Bool {
        item.attributes[AttributeName.tombstone]?.integerValue == 1
    }

    /// Writes a record this device last agreed at some revision but that is gone from the server:
    /// only a collected tombstone disappears, and only after this device pulled it, so the local
    /// item (a re-add since) is newer and belongs there. Returns whether the row was written; a
    /// record that exists under another revision is a conflict for the next pull to merge.
    func insertCollected(_ connection: PostgresConnection, group: String, recordID: Data, revision: Int64, epoch: Int64,
                         sealed: Data, tombstone: Bool) async throws -> Bool {
        var written = 0
        for try await _ in try await connection.query(
            """
            INSERT INTO sync_records (group_id, record_id, revision, epoch, ciphertext, tombstone)
            VALUES (\(group), \(recordID), \(revision), \(epoch), \(sealed), \(tombstone)) ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger) {
            written += 1
        }
        return written == 1
    }
}
#endif
