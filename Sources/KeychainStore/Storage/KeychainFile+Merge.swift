#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Merging items that come from outside the keychain (another secret store), under the rule a
/// backup's items are merged by (``KeychainFile/importBackup(from:password:)``).
extension KeychainFile {
    /// An item to merge: its attributes as ``add(_:attributes:secret:identity:accessControl:)``
    /// takes them, its secret, and the dates it had where it came from.
    package struct IncomingItem: Sendable {
        package var itemClass: ItemClass
        package var attributes: [String: AttributeValue]
        package var secret: Data
        package var created: Date
        package var modified: Date

        package init(itemClass: ItemClass, attributes: [String: AttributeValue], secret: Data, created: Date, modified: Date) {
            self.itemClass = itemClass
            self.attributes = attributes
            self.secret = secret
            self.created = created
            self.modified = modified
        }
    }

    /// What a merge did with its items.
    package struct MergeCounts: Sendable, Equatable {
        /// Items whose primary key was not in the keychain.
        package var added = 0
        /// Items that replaced a keychain item with the same primary key, being newer.
        package var replaced = 0
        /// Items left out because the keychain's item with the same primary key is as new or newer.
        package var kept = 0

        package init() {}
    }

    /// Merges `items` in one transaction: all of them or, on any failure, none.
    ///
    /// Each is added as `add` would add it, keeping its own dates; when an item with the same
    /// primary key is here, the later modification date wins and on equal dates the smaller
    /// digest (`sha1`), as ``importBackup(from:password:)`` merges a backup. The winner keeps the
    /// local item's identity. Nothing is deleted. Two incoming items with one primary key are
    /// merged by the same rule, the first against the keychain, the second against the result.
    ///
    /// - Throws: `errSecInteractionNotAllowed` while the keychain is locked, `errSecMissingEntitlement`
    ///   for a group `identity` cannot write.
    package func merge(_ items: [IncomingItem], identity: ClientIdentity) throws(KeychainStoreError) -> MergeCounts {
        var prepared: [(item: StoredItem, protection: ProtectionClass)] = []
        for item in items {
            let attributes = try newItemAttributes(item.itemClass, item.attributes, identity: identity, accessControl: nil,
                                                   dates: (item.created.timeIntervalSinceReferenceDate,
                                                           item.modified.timeIntervalSinceReferenceDate))
            guard let protection = attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)) else {
                throw .parameter("invalid accessibility")
            }
            prepared.append((StoredItem(itemClass: item.itemClass, persistentReference: Data(), attributes: attributes, secret: item.secret),
                             protection))
        }
        return try withItemTransaction { state throws(KeychainStoreError) -> MergeCounts in
            // Every item's class must be open before the first one is written.
            for protection in Set(prepared.map(\.protection)) {
                if protection == .whenPasscodeSetThisDeviceOnly && !state.keybag.hasPassword {
                    throw .notAvailable("items that require a passcode cannot be added to a keychain without a password")
                }
                _ = try state.keybag.key(for: protection)
            }
            var counts = MergeCounts()
            for (item, protection) in prepared {
                switch try state.merge(item, protection: protection, policy: .otherStore) {
                case .added: counts.added += 1
                case .replaced: counts.replaced += 1
                case .keptLocal: counts.kept += 1
                }
            }
            return counts
        }
    }

    /// What a merge of items from elsewhere does where it meets a local item with the same
    /// primary key. The rule that picks the winner is the same for every source (Security's:
    /// the later modification date, then the smaller digest, ``incomingWins(_:over:)``); these
    /// are what the sources differ in.
    struct MergePolicy {
        /// Whether a local tombstone is weighed by that rule like any item (sync: a delete wins
        /// over an older edit, and a newer re-add over the delete) or always gives way (imports).
        var weighsLocalTombstones: Bool
        /// Whether a local item that cannot be read back gives way (sync) or stays (imports).
        var replacesUnreadableLocal: Bool
        /// Whether a new row keeps the item's own persistent reference where no local item has
        /// it (a backup's, which the user's code may hold), or gets a fresh one.
        var keepsIncomingReference: Bool

        /// A backup of this keychain being imported (``importBackup(from:password:)``).
        static let backup = MergePolicy(weighsLocalTombstones: false, replacesUnreadableLocal: false, keepsIncomingReference: true)
        /// Another secret store's items (``merge(_:identity:)``).
        static let otherStore = MergePolicy(weighsLocalTombstones: false, replacesUnreadableLocal: false, keepsIncomingReference: false)
        /// Another device's synchronizable items (``applySynced(_:)``).
        static let sync = MergePolicy(weighsLocalTombstones: true, replacesUnreadableLocal: true, keepsIncomingReference: false)
    }

    /// What merging one item did.
    enum MergeOutcome {
        /// A new row, or one written over a local tombstone.
        case added
        /// It replaced the local item, being newer.
        case replaced
        /// The local item is as new or newer, and stayed.
        case keptLocal
    }
}

extension KeychainFile.State {
    /// Merges one item from elsewhere, sealed under `protection`'s key, by `policy`: the one merge
    /// behind backups, imports from other stores and sync. The winner keeps the local item's
    /// identity, as Security's merge does; an incoming tombstone carries no secret.
    func merge(_ item: StoredItem, protection: ProtectionClass, policy: KeychainFile.MergePolicy) throws(KeychainStoreError)
        -> KeychainFile.MergeOutcome {
        let table = ItemTable(item.itemClass)
        let key = primaryKeyIndex(table, item.attributes)
        let isTombstone = item.attributes[AttributeName.tombstone]?.integerValue == 1
        func sealed(under reference: Data) throws(KeychainStoreError) -> Data? {
            isTombstone ? nil : try sealSecret(item.secret, table: table, persistentReference: reference, protection: protection)
        }
        guard let local = try row(withPrimaryKey: key, in: table) else {
            let (rowid, fresh) = try newRow(table)
            // A kept reference does not name its new row, so it gets a `_refs` entry (.restored).
            if policy.keepsIncomingReference, !(try isInUse(item.persistentReference, in: table)) {
                try writeRow(table, .restored(rowid), persistentReference: item.persistentReference, attributes: item.attributes,
                             sealedSecret: try sealed(under: item.persistentReference), primaryKey: key)
            } else {
                try writeRow(table, .new(rowid), persistentReference: fresh, attributes: item.attributes,
                             sealedSecret: try sealed(under: fresh), primaryKey: key)
            }
            return .added
        }
        var changedNames: [String]?
        if !local.isTombstone || policy.weighsLocalTombstones {
            // Named explicitly: a lookup by reference alone would not see a tombstone.
            let current = try matchingRows(ItemQuery(itemClass: item.itemClass,
                                                     filters: [AttributeName.tombstone: .integer(local.isTombstone ? 1 : 0)],
                                                     persistentReference: local.persistentReference),
                                           identity: .administrator(), limit: 1, openSecrets: false).first
            if let current {
                guard KeychainFile.incomingWins(item.attributes, over: current.attributes) else { return .keptLocal }
                changedNames = KeychainFile.State.attributeNames(differingFrom: current.attributes, in: item.attributes)
            } else if !policy.replacesUnreadableLocal {
                return .keptLocal
            }
        }
        try writeRow(table, .existing(local.rowid), persistentReference: local.persistentReference, attributes: item.attributes,
                     sealedSecret: try sealed(under: local.persistentReference), primaryKey: key, changedNames: changedNames)
        return local.isTombstone ? .added : .replaced
    }
}
