#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import PostgresNIO

extension SyncEngine {
    /// What one sync round did.
    package struct RoundReport: Sendable, Equatable, CustomStringConvertible {
        /// Records read from the server that were new to this device.
        package var pulled = 0
        /// Of those, items written into the keychain (newer than the local copy, or new here).
        package var applied = 0
        /// Records whose local item was as new or newer and stayed.
        package var keptLocal = 0
        /// Local changes the server accepted.
        package var pushed = 0
        /// Pushes refused because another device had written the record first (merged and retried).
        package var conflicts = 0
        /// Records that failed authentication or made no sense: never applied.
        package var rejected = 0
        /// Records older than what this device already applied for their id: ignored.
        package var replayed = 0
        /// Tombstones deleted from the server because every device had pulled them.
        package var collected = 0

        package init() {}

        package var description: String {
            "pulled \(pulled) (applied \(applied), kept local \(keptLocal)), pushed \(pushed), conflicts \(conflicts), "
                + "rejected \(rejected), replayed \(replayed), collected \(collected)"
        }
    }

    /// Pulls every record written since the last round, merges it, and pushes local changes;
    /// repeats (a few times at most) while another device's writes collide with this one's.
    package func syncNow() async throws -> RoundReport {
        try await round(pullFirst: true)
    }

    /// A round; `pullFirst: false` pushes before pulling, which is what a device does whose
    /// pull raced with another device's push (tests use it to make that race happen).
    func round(pullFirst: Bool) async throws -> RoundReport {
        try await withConnection { [self] connection in
            var view = try await refresh(connection)
            var report = RoundReport()
            for attempt in 0..<5 {
                if attempt > 0 || pullFirst { try await pull(connection, view: &view, report: &report) }
                let before = report.conflicts
                try await push(connection, view: &view, report: &report)
                if report.conflicts == before { break }
            }
            report.collected = try await reportPulledAndCollect(connection, view: view)
            try state.transaction { () throws(KeychainStoreError) in
                try state.setString(Setting.lastSync, ISO8601DateFormatter().string(from: Date()))
                try state.setInteger(Setting.rejected, (try state.integer(Setting.rejected) ?? 0) + Int64(report.rejected))
                try state.setInteger(Setting.replayed, (try state.integer(Setting.replayed) ?? 0) + Int64(report.replayed))
            }
            return report
        }
    }

    /// Reads records with a revision above this device's cursor, in revision order, and merges
    /// each into the keychain by Apple's rule. A record that fails authentication, is sealed
    /// under a superseded epoch, or decodes to something else than its id says is counted as
    /// rejected and never applied; one older than what was applied for its id is a replay, and
    /// so is one this device has no state for that the group's manifest does not list under
    /// that revision (the server put back an older copy).
    func pull(_ connection: PostgresConnection, view: inout GroupView, report: inout RoundReport) async throws {
        let group = try groupID()
        var cursor = try state.integer(Setting.cursor) ?? 0
        var known = try state.recordStates()
        // Read only when a record this device has no state for comes: then every record read
        // afterwards is at or below the revision it covers, so it can judge each of them.
        var manifest: Manifest?
        while true {
            let ceiling = manifest?.coveredRevision ?? Int64.max
            var batch: [(recordID: Data, revision: Int64, epoch: Int64, ciphertext: Data)] = []
            for try await row in try await connection.query(
                """
                SELECT record_id, revision, epoch, ciphertext FROM sync_records
                WHERE group_id = \(group) AND revision > \(cursor) AND revision <= \(ceiling)
                ORDER BY revision LIMIT \(Int64(SyncEngine.pullBatch))
                """, logger: logger).decode((Data, Int64, Int64, Data).self) {
                batch.append(row)
            }
            if batch.isEmpty { return }
            if manifest == nil, batch.contains(where: { known[$0.recordID] == nil }) {
                manifest = try await readManifest(connection, view)
                continue
            }
            var items: [StoredItem] = []
            var origins: [(recordID: Data, revision: Int64)] = []
            var refusedRecords: [(recordID: Data, revision: Int64)] = []
            var newCursor = cursor
            var epochMoved = false
            for record in batch {
                if let latest = view.keys.latestEpoch, record.epoch > latest {
                    // Sealed under a key shared after this round began: fetch it, or stop here. A
                    // new epoch gave every record a new id (refresh carried the states over).
                    view = try await refresh(connection)
                    epochMoved = (view.keys.latestEpoch ?? 0) > latest
                    break
                }
                newCursor = record.revision
                if let previous = known[record.recordID] {
                    if record.revision <= previous.revision {
                        if record.revision < previous.revision { report.replayed += 1 }
                        continue
                    }
                } else if let manifest, manifest.isCurrent(recordID: record.recordID, revision: record.revision) != true {
                    report.replayed += 1
                    continue
                }
                report.pulled += 1
                guard record.epoch == view.keys.latestEpoch,
                      let plaintext = try view.keys.open(record.ciphertext, recordID: record.recordID, epoch: record.epoch,
                                                         revision: record.revision),
                      let item = try? SyncItemCodec.decode(plaintext),
                      try view.keys.recordID(of: item) == record.recordID,
                      KeychainFile.isSyncEligible(item.attributes)
                else {
                    report.rejected += 1
                    refusedRecords.append((record.recordID, record.revision))
                    continue
                }
                items.append(item)
                origins.append((record.recordID, record.revision))
            }
            if epochMoved {
                known = try state.recordStates()
                manifest = nil
                continue
            }
            let outcomes = try keychain.applySynced(items)
            try state.transaction { () throws(KeychainStoreError) in
                for (index, outcome) in outcomes.enumerated() {
                    switch outcome {
                    case .applied: report.applied += 1
                    case .keptLocal: report.keptLocal += 1
                    case .ineligible:
                        report.rejected += 1
                        refusedRecords.append(origins[index])
                        continue
                    }
                    let recordState = SyncEngine.recordState(of: items[index], revision: origins[index].revision)
                    known[origins[index].recordID] = recordState
                    try state.setRecordState(origins[index].recordID, recordState)
                }
                // A refused record's revision is remembered with the item version this device
                // had agreed before it, so that the local item (if any) differs and the next push
                // overwrites the bad record by compare-and-set instead of colliding with it forever.
                for (recordID, revision) in refusedRecords {
                    let agreed = known[recordID]
                    let recordState = SyncStateFile.RecordState(revision: revision, modificationDate: agreed?.modificationDate ?? 0,
                                                                digest: Data())
                    known[recordID] = recordState
                    try state.setRecordState(recordID, recordState)
                }
                try state.setInteger(Setting.cursor, newCursor)
            }
            if newCursor == cursor { return }  // stopped at a record it cannot read yet
            cursor = newCursor
        }
    }

    static func recordState(of item: StoredItem, revision: Int64) -> SyncStateFile.RecordState {
        var modified = 0.0
        if case .date(let date)? = item.attributes[AttributeName.modificationDate] { modified = date }
        return SyncStateFile.RecordState(revision: revision, modificationDate: modified,
                                         digest: item.attributes[AttributeName.sha1]?.dataValue ?? Data())
    }

    /// The local synchronizable items (tombstones included) whose version differs from what this
    /// device last agreed with the server: what the next push sends.
    func pendingChanges(keys: GroupKeys) throws -> [(recordID: Data, item: StoredItem)] {
        let known = try state.recordStates()
        var changes: [(Data, StoredItem)] = []
        // Attributes first (one decryption per item); secrets only for the items that changed.
        for item in try keychain.synchronizableItems(includeSecrets: false) {
            let recordID = try keys.recordID(of: item)
            let current = SyncEngine.recordState(of: item, revision: 0)
            if let agreed = known[recordID], agreed.modificationDate == current.modificationDate, agreed.digest == current.digest {
                continue
            }
            guard let whole = try keychain.withSecret(item) else { continue }  // deleted meanwhile: the next round sees its tombstone
            changes.append((recordID, whole))
        }
        return changes
    }

    /// Sends local changes, each a compare-and-set on the revision this device last saw for its
    /// record (an insert that must not find one, for a record it never saw). A refused write is
    /// a conflict: the next pull brings the other device's version and the merge decides.
    func push(_ connection: PostgresConnection, view: inout GroupView, report: inout RoundReport) async throws {
        let group = try groupID()
        let known = try state.recordStates()
        var remaining = try pendingChanges(keys: view.keys)[...]
        while !remaining.isEmpty {
            let batch = remaining.prefix(SyncEngine.pushBatch)
            remaining = remaining.dropFirst(batch.count)
            let cursor = try state.integer(Setting.cursor) ?? 0
            let currentView = view
            let currentKeys = view.keys
            let (accepted, refused, cursorAfter, written):
                ([(Data, SyncStateFile.RecordState)], Int, Int64?, Manifest?) = try await transaction(connection) {
                let (epoch, start) = try await lockGroup(connection)
                if epoch != currentKeys.latestEpoch {
                    // Either another member re-keyed since this round began (its statement and
                    // shares are there now: the next round works under them), or the server
                    // moved the epoch on its own.
                    let refreshed = try await refresh(connection)
                    guard refreshed.roster.epoch == epoch else {
                        throw SyncError.untrustedServer("the group's row names epoch \(epoch), which no member's statement began")
                    }
                    throw SyncError.server("another device re-keyed the group during this round; sync again")
                }
                var manifest = try await readManifest(connection, currentView)
                // Ahead would mean revisions given out twice; behind, revisions no member wrote,
                // whose records the manifest written here does not list (so every device refuses them).
                guard manifest.coveredRevision <= start else { throw SyncError.untrustedServer("the group's manifest is ahead of its records") }
                let previousVersion = manifest.version
                var revision = start
                var accepted: [(Data, SyncStateFile.RecordState)] = []
                var refused = 0
                for (recordID, item) in batch {
                    revision += 1
                    let sealed = try currentKeys.seal(SyncItemCodec.encode(item), recordID: recordID, epoch: epoch, revision: revision)
                    var written = 0
                    let tombstone = SyncEngine.isTombstone(item)
                    if let previous = known[recordID] {
                        for try await _ in try await connection.query(
                            """
                            UPDATE sync_records SET revision = \(revision), epoch = \(epoch), ciphertext = \(sealed), tombstone = \(tombstone),
                                updated_at = now()
                            WHERE group_id = \(group) AND record_id = \(recordID) AND revision = \(previous.revision) RETURNING 1
                            """, logger: logger) { written += 1 }
                    }
                    // A record never seen, or one whose tombstone was collected since (SyncEngine+Tombstones).
                    if written == 0, try await insertCollected(connection, group: group, recordID: recordID, revision: revision,
                                                               epoch: epoch, sealed: sealed, tombstone: tombstone) {
                        written = 1
                    }
                    if written == 1 {
                        accepted.append((recordID, SyncEngine.recordState(of: item, revision: revision)))
                        manifest.entries[recordID] = revision
                    } else {
                        refused += 1
                        revision -= 1
                    }
                }
                try await connection.query("UPDATE sync_groups SET revision = \(revision) WHERE group_id = \(group)", logger: logger)
                var written: Manifest?
                if !accepted.isEmpty {
                    manifest.version += 1
                    manifest.coveredRevision = revision
                    try await writeManifest(manifest, replacing: previousVersion, keys: currentKeys, group: group, connection)
                    written = manifest
                }
                // Nobody else wrote since this device's last pull: its cursor may skip its own writes.
                return (accepted, refused, start == cursor ? revision : nil, written)
            }
            if let written { try adoptManifest(written) }
            try state.transaction { () throws(KeychainStoreError) in
                for (recordID, recordState) in accepted { try state.setRecordState(recordID, recordState) }
                if let cursorAfter { try state.setInteger(Setting.cursor, cursorAfter) }
            }
            report.pushed += accepted.count
            report.conflicts += refused
        }
    }
}
#endif
