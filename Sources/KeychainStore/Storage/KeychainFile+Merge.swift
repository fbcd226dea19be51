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
        var prepared: [(table: ItemTable, attributes: [String: AttributeValue], secret: Data, protection: ProtectionClass)] = []
        for item in items {
            let attributes = try newItemAttributes(item.itemClass, item.attributes, identity: identity, accessControl: nil,
                                                   dates: (item.created.timeIntervalSinceReferenceDate,
                                                           item.modified.timeIntervalSinceReferenceDate))
            guard let protection = attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)) else {
                throw .parameter("invalid accessibility")
            }
            prepared.append((ItemTable(item.itemClass), attributes, item.secret, protection))
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
            for item in prepared {
                let primaryKey = state.primaryKeyIndex(item.table, item.attributes)
                if let (rowid, isTombstone, localReference) = try state.row(withPrimaryKey: primaryKey, in: item.table) {
                    if !isTombstone {
                        let local = try state.matchingRows(ItemQuery(itemClass: item.table.itemClass, persistentReference: localReference),
                                                           identity: .administrator(), limit: 1, openSecrets: false).first
                        guard let local, KeychainFile.incomingWins(item.attributes, over: local.attributes) else {
                            counts.kept += 1
                            continue
                        }
                    }
                    let sealed = try state.sealSecret(item.secret, table: item.table, persistentReference: localReference,
                                                      protection: item.protection)
                    try state.writeRow(item.table, .existing(rowid), persistentReference: localReference, attributes: item.attributes,
                                       sealedSecret: sealed, primaryKey: primaryKey)
                    if isTombstone { counts.added += 1 } else { counts.replaced += 1 }
                } else {
                    let (rowid, reference) = try state.newRow(item.table)
                    let sealed = try state.sealSecret(item.secret, table: item.table, persistentReference: reference,
                                                      protection: item.protection)
                    try state.writeRow(item.table, .new(rowid), persistentReference: reference, attributes: item.attributes,
                                       sealedSecret: sealed, primaryKey: primaryKey)
                    counts.added += 1
                }
            }
            return counts
        }
    }
}
