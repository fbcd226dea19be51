package import KeychainStore

/// Moving another Secret Service provider's items into the keychain (`keychainctl import --from
/// gnome-keyring`): each item becomes the keychain item keychaind would have made of it had a
/// client stored it over D-Bus (``SecretItemShape``), keeping its label, dates and content type.
extension KeychainCollection {
    /// Stores `items` in one transaction, all or none, merging them under the rule backups are
    /// imported by: an item whose keychain key is new is added; one whose key is here replaces
    /// that item if it was modified later (on equal dates, by the smaller digest), and is
    /// otherwise left out.
    ///
    /// Items of the file that have one keychain key (equal attribute sets, which a Secret
    /// Service keeps apart) stay apart, as CreateItem keeps them: the first takes the plain key,
    /// the n-th a sharing group of its own, ``importedSharingGroup(_:)``, the same on every
    /// import of the file, so that importing it again merges each with itself.
    ///
    /// - Throws: the keychain's error (`errSecInteractionNotAllowed` while it is locked).
    package func importItems(_ items: [GnomeKeyringItem]) throws(KeychainStoreError) -> KeychainFile.MergeCounts {
        var seenKeys: [ItemClass: [[String: AttributeValue]: Int]] = [:]
        let incoming = items.map { item in
            let shape = SecretItemShape(item.attributes)
            var attributes = Self.keychainAttributes(shape, label: item.label, attributes: item.attributes, contentType: item.contentType)
            let key = Self.primaryKeyFilters(attributes, of: shape.itemClass)
            let ordinal = seenKeys[shape.itemClass, default: [:]][key, default: 0] + 1
            seenKeys[shape.itemClass, default: [:]][key] = ordinal
            if ordinal > 1 { attributes[AttributeName.sharingGroup] = .string(Self.importedSharingGroup(ordinal)) }
            return KeychainFile.IncomingItem(itemClass: shape.itemClass, attributes: attributes,
                                             secret: item.secret, created: item.created, modified: item.modified)
        }
        return try file.merge(incoming, identity: ClientIdentity(accessGroups: [ClientIdentity.sharedGroup]))
    }

    /// The sharing group of the `ordinal`-th imported item of one keychain key.
    static func importedSharingGroup(_ ordinal: Int) -> String {
        sharingGroupPrefix + "imported-\(ordinal)"
    }
}
