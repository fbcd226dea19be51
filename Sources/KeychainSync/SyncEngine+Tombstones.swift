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
    /// has pulled past; returns how many were deleted.
    func reportPulledAndCollect(_ connection: PostgresConnection) async throws -> Int {
        let group = try groupID(), device = try deviceID()
        let pulled = try state.integer(Setting.cursor) ?? 0
        return try await transaction(connection) {
            try await connection.query(
                """
                UPDATE sync_devices SET pulled_revision = greatest(pulled_revision, \(pulled))
                WHERE group_id = \(group) AND device_id = \(device)
                """, logger: logger)
            var collected = 0
            // READ COMMITTED re-checks each row it deletes: a tombstone that another device
            // replaces with a re-added item meanwhile is no longer a tombstone and stays.
            for try await _ in try await connection.query(
                """
                DELETE FROM sync_records WHERE group_id = \(group) AND tombstone
                AND revision <= (SELECT coalesce(min(pulled_revision), 0) FROM sync_devices WHERE group_id = \(group) AND status = 'approved')
                RETURNING 1
                """, logger: logger) {
                collected += 1
            }
            return collected
        }
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
