#if Sync  // built only with the Sync trait (Package.swift)
import Foundation

/// The group's list of records and their latest revisions, sealed under the epoch's manifest
/// key and rewritten by every push, removal and collection (docs/sync.md, "Manifest"). With it
/// a device that holds no record state of its own (a new device, one whose state was reset by
/// a re-key) refuses any record older than the group's latest: the server cannot put back an
/// old copy of the table, as Apple's CKKS manifests were meant to stop a server from serving
/// old or missing items (Apple's `CKKSManifest`).
///
/// Versions only grow: a device remembers the highest it verified, and a device's admission
/// pins the version its approver had verified (``RosterStatement/manifestPin``).
struct Manifest: Sendable, Equatable {
    var version: Int64
    var epoch: Int64
    /// The group revision it was written at: every record at or below it is listed, and a
    /// record at or below it that is not listed, or listed under another revision, is stale.
    var coveredRevision: Int64
    var entries: [Data: Int64]

    static let label = "swift-keychain sync manifest body v1"
    static let recordIDLength = 32

    /// Whether a record pulled with this id and revision is the group's latest, as far as this
    /// manifest knows; nil for a record newer than the manifest, which it cannot judge.
    func isCurrent(recordID: Data, revision: Int64) -> Bool? {
        guard revision <= coveredRevision else { return nil }
        return entries[recordID] == revision
    }

    func sealed(with keys: GroupKeys) throws(SyncError) -> Data {
        var writer = ByteWriter(label: Manifest.label)
        writer.integer(coveredRevision)
        writer.integer(Int64(entries.count))
        for (recordID, revision) in entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            writer.fixed(recordID)
            writer.integer(revision)
        }
        return try keys.sealManifest(writer.data, epoch: epoch, version: version)
    }

    /// Opens a manifest the server holds under `version` and `epoch`; throws when it does not
    /// authenticate or makes no sense.
    static func open(_ sealed: Data, version: Int64, epoch: Int64, keys: GroupKeys) throws(SyncError) -> Manifest {
        guard let plaintext = try keys.openManifest(sealed, epoch: epoch, version: version) else {
            throw .untrustedServer("the group's manifest (version \(version)) does not authenticate")
        }
        var scanner = try ByteScanner(plaintext, label: label, what: "the group's manifest")
        let covered = try scanner.integer()
        let count = try scanner.integer()
        guard count >= 0, count <= Int64(plaintext.count / (recordIDLength + 8)) else { throw .untrustedServer("the group's manifest is malformed") }
        var entries: [Data: Int64] = [:]
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let recordID = try scanner.fixed(recordIDLength)
            entries[recordID] = try scanner.integer()
        }
        try scanner.finish()
        return Manifest(version: version, epoch: epoch, coveredRevision: covered, entries: entries)
    }
}
#endif
