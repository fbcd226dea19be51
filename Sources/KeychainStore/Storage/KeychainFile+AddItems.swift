import Crypto
#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// An item to add: what ``KeychainFile/add(_:attributes:secret:identity:accessControl:)`` takes.
package struct NewItem: Sendable {
    package let itemClass: ItemClass
    package let attributes: [String: AttributeValue]
    package let secret: Data?
    package let accessControl: ItemAccessControl?

    package init(_ itemClass: ItemClass, attributes: [String: AttributeValue], secret: Data?, accessControl: ItemAccessControl? = nil) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.secret = secret
        self.accessControl = accessControl
    }
}

extension KeychainFile {
    /// Adds several items in one transaction: all of them, or (on any failure, a duplicate
    /// included) none. Each follows the rules of the single add
    /// (``add(_:attributes:secret:identity:accessControl:)``, which is this with one item); a key
    /// pair's two halves are stored this way, so that making a permanent key costs one durable
    /// commit and never leaves half a pair behind.
    package func add(_ items: [NewItem], identity: ClientIdentity) throws(KeychainStoreError) -> [StoredItem] {
        var prepared: [(item: NewItem, attributes: [String: AttributeValue], protection: ProtectionClass)] = []
        prepared.reserveCapacity(items.count)
        for item in items {
            let attributes = try newItemAttributes(item.itemClass, item.attributes, identity: identity, accessControl: item.accessControl)
            prepared.append((item, attributes, ProtectionClass(pdmn: attributes[AttributeName.accessible]!.stringValue!)!))
        }
        return try withItemTransaction { state throws(KeychainStoreError) -> [StoredItem] in
            // Every item's class must be open before the first one is written.
            var presenceKeys: [Curve25519.KeyAgreement.PublicKey?] = []
            for entry in prepared {
                if entry.protection == .whenPasscodeSetThisDeviceOnly && !state.keybag.hasPassword {
                    throw .notAvailable("items that require a passcode cannot be added to a keychain without a password")
                }
                _ = try state.keybag.key(for: entry.protection)
                presenceKeys.append(entry.item.accessControl?.requiresAuthentication == true ? try state.presencePublicKey(for: entry.protection) : nil)
            }
            var stored: [StoredItem] = []
            stored.reserveCapacity(prepared.count)
            for (entry, presenceKey) in zip(prepared, presenceKeys) {
                stored.append(try state.insert(entry.item.itemClass, entry.attributes, secret: entry.item.secret,
                                               protection: entry.protection, presenceKey: presenceKey))
            }
            return stored
        }
    }
}

extension KeychainFile.State {
    /// Writes one new item inside the caller's transaction. Inserts straight away and lets the
    /// UNIQUE primary-key index find a clash, rather than looking first: the clash is the rare
    /// case, and the look costs every add. A live item with the key is a duplicate; a tombstone
    /// is replaced and keeps its identity, as Security does.
    func insert(_ itemClass: ItemClass, _ item: [String: AttributeValue], secret: Data?, protection: ProtectionClass,
                presenceKey: Curve25519.KeyAgreement.PublicKey?) throws(KeychainStoreError) -> StoredItem {
        let table = ItemTable(itemClass)
        let (rowid, reference) = try newRow(table)
        let primaryKey = primaryKeyIndex(table, item)
        do throws(KeychainStoreError) {
            let sealed = try sealSecret(secret, table: table, persistentReference: reference, protection: protection, presenceKey: presenceKey)
            try writeRow(table, .new(rowid), persistentReference: reference, attributes: item, sealedSecret: sealed, primaryKey: primaryKey)
            return StoredItem(itemClass: itemClass, persistentReference: reference, attributes: item, secret: secret)
        } catch where error.status == KeychainStoreError.duplicateItem.status {
            guard let existing = try row(withPrimaryKey: primaryKey, in: table), existing.isTombstone else { throw .duplicateItem }
            let sealed = try sealSecret(secret, table: table, persistentReference: existing.persistentReference, protection: protection, presenceKey: presenceKey)
            try writeRow(table, .existing(existing.rowid), persistentReference: existing.persistentReference, attributes: item, sealedSecret: sealed, primaryKey: primaryKey)
            return StoredItem(itemClass: itemClass, persistentReference: existing.persistentReference, attributes: item, secret: secret)
        }
    }
}
