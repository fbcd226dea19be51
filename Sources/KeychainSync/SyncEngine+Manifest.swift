#if Sync  // built only with the Sync trait (Package.swift)
import Foundation
import KeychainStore
import PostgresNIO

/// Reading and writing the group's manifest (``Manifest``; docs/sync.md, "Manifest").
extension SyncEngine {
    /// The lowest manifest version this device accepts: the highest it verified, and never
    /// below what its admission pinned.
    func manifestFloor(_ roster: Roster) throws -> Int64 {
        let pin = (try? deviceKeys()).flatMap { roster.members[$0.identity.id]?.manifestPin } ?? 0
        return max(try state.integer(Setting.manifestVersion) ?? 0, pin)
    }

    /// The group's manifest as the server holds it, once it authenticates under the current
    /// epoch and is no older than ``manifestFloor(_:)``; the floor moves up to it.
    func readManifest(_ connection: PostgresConnection, _ view: GroupView) async throws -> Manifest {
        var row: (Int64, Int64, Data)?
        for try await found in try await connection.query(
            "SELECT version, epoch, body FROM sync_manifests WHERE group_id = \(view.roster.groupID)", logger: logger)
            .decode((Int64, Int64, Data).self) {
            row = found
        }
        guard let (version, epoch, body) = row else { throw SyncError.untrustedServer("the group's manifest is missing") }
        guard epoch == view.roster.epoch else { throw SyncError.untrustedServer("the group's manifest is of epoch \(epoch), not \(view.roster.epoch)") }
        let floor = try manifestFloor(view.roster)
        guard version >= floor else {
            throw SyncError.untrustedServer("the server shows manifest version \(version), older than version \(floor) this device verified")
        }
        let manifest = try Manifest.open(body, version: version, epoch: epoch, keys: view.keys)
        if version > floor { try state.setInteger(Setting.manifestVersion, version) }
        return manifest
    }

    /// Replaces the server's manifest `previous` with `next` (its version one higher), by
    /// compare-and-set on the version; call ``adoptManifest(_:)`` once the transaction commits.
    func writeManifest(_ next: Manifest, replacing previous: Int64?, keys: GroupKeys, group: String,
                       _ connection: PostgresConnection) async throws {
        let body = try next.sealed(with: keys)
        var written = 0
        if let previous {
            for try await _ in try await connection.query(
                """
                UPDATE sync_manifests SET version = \(next.version), epoch = \(next.epoch), body = \(body)
                WHERE group_id = \(group) AND version = \(previous) RETURNING 1
                """, logger: logger) { written += 1 }
        } else {
            for try await _ in try await connection.query(
                """
                INSERT INTO sync_manifests (group_id, version, epoch, body) VALUES (\(group), \(next.version), \(next.epoch), \(body))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger) { written += 1 }
        }
        guard written == 1 else { throw SyncError.untrustedServer("the group's manifest changed under a write that held the group's lock") }
    }

    /// Remembers a manifest this device wrote, after the write committed.
    func adoptManifest(_ manifest: Manifest) throws {
        if manifest.version > (try state.integer(Setting.manifestVersion) ?? 0) {
            try state.setInteger(Setting.manifestVersion, manifest.version)
        }
    }
}
#endif
