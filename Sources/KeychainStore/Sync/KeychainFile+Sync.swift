#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the sync engine (the `KeychainSync` module, docs/sync.md) needs from a keychain: its
/// synchronizable items, tombstones included, and a way to merge items that arrive from other
/// devices. Local `SecItem` calls know nothing of sync; this is the only door it uses.
extension KeychainFile {
    /// Whether an item takes part in sync, as Apple's engines decide: `sync = 1`, not a
    /// `…ThisDeviceOnly` protection (which Apple accepts at add time and then never syncs), and no
    /// access control (such an item cannot be synchronizable).
    package static func isSyncEligible(_ attributes: [String: AttributeValue]) -> Bool {
        guard attributes[AttributeName.synchronizable]?.integerValue == 1,
              let protection = attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)),
              !protection.isThisDeviceOnly else { return false }
        return attributes[AttributeName.accessControl] == nil
    }

    /// Every item that syncs, live items and tombstones, in class order; secrets only when
    /// `includeSecrets` (a round compares attributes first and reads only changed items' secrets).
    package func synchronizableItems(includeSecrets: Bool = true) throws(KeychainStoreError) -> [StoredItem] {
        var items: [StoredItem] = []
        for itemClass in ItemClass.allCases {
            for tombstone in [Int64(0), 1] {
                let query = ItemQuery(itemClass: itemClass, filters: [AttributeName.synchronizable: .integer(1),
                                                                      AttributeName.tombstone: .integer(tombstone)])
                let found = try find(query, identity: .administrator(), limit: nil, includeSecrets: includeSecrets)
                items += found.filter { KeychainFile.isSyncEligible($0.attributes) }
            }
        }
        return items
    }

    /// `item` read again with its secret (nil when it is gone since).
    package func withSecret(_ item: StoredItem) throws(KeychainStoreError) -> StoredItem? {
        let tombstone = item.attributes[AttributeName.tombstone]?.integerValue ?? 0
        let query = ItemQuery(itemClass: item.itemClass, filters: [AttributeName.tombstone: .integer(tombstone)],
                              persistentReference: item.persistentReference)
        return try find(query, identity: .administrator(), limit: 1, includeSecrets: true).first
    }

    /// What happened to one item handed to ``applySynced(_:)``.
    package enum SyncMergeOutcome: Sendable, Equatable {
        /// The incoming item was written: it was new here, or newer than the local one.
        case applied
        /// The local item (or tombstone) is as new or newer and stays.
        case keptLocal
        /// Not an item that may sync (not synchronizable, a device-only protection).
        case ineligible
    }

    /// Merges items from other devices in one transaction, by Apple's rule: the later
    /// modification date wins, and on equal dates the smaller digest. Unlike a backup's merge,
    /// local tombstones take part in the comparison, so a delete wins over an older edit and a
    /// newer re-add wins over the delete. A new item gets a fresh local identity; a replaced one
    /// keeps its own.
    package func applySynced(_ items: [StoredItem]) throws(KeychainStoreError) -> [SyncMergeOutcome] {
        try withItemTransaction { state throws(KeychainStoreError) -> [SyncMergeOutcome] in
            var outcomes: [SyncMergeOutcome] = []
            outcomes.reserveCapacity(items.count)
            for item in items {
                outcomes.append(try state.applySynced(item))
            }
            return outcomes
        }
    }
}

extension KeychainFile.State {
    func applySynced(_ item: StoredItem) throws(KeychainStoreError) -> KeychainFile.SyncMergeOutcome {
        guard KeychainFile.isSyncEligible(item.attributes),
              let protection = item.attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:))
        else { return .ineligible }
        return try merge(item, protection: protection, policy: .sync) == .keptLocal ? .keptLocal : .applied
    }
}
