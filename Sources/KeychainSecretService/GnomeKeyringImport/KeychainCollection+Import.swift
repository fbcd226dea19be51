package import KeychainStore

/// Moving another Secret Service provider's items into the keychain (`keychainctl import --from
/// gnome-keyring`): each item becomes the keychain item keychaind would have made of it had a
/// client stored it over D-Bus (``SecretItemShape``), keeping its label, dates and content type.
extension KeychainCollection {
    /// Stores `items` in one transaction, all or none, merging them under the rule backups are
    /// imported by: an item whose keychain key is new is added; one whose key is here replaces
    /// that item if it was modified later (on equal dates, by the smaller digest), and is
    /// otherwise left out. Items of one keychain key (the keychain holds one item per key) are
    /// merged among themselves by the same rule, in the order given.
    ///
    /// - Throws: the keychain's error (`errSecInteractionNotAllowed` while it is locked).
    package func importItems(_ items: [GnomeKeyringItem]) throws(KeychainStoreError) -> KeychainFile.MergeCounts {
        let incoming = items.map { item in
            let shape = SecretItemShape(item.attributes)
            return KeychainFile.IncomingItem(
                itemClass: shape.itemClass,
                attributes: Self.keychainAttributes(shape, label: item.label, attributes: item.attributes, contentType: item.contentType),
                secret: item.secret, created: item.created, modified: item.modified)
        }
        return try file.merge(incoming, identity: ClientIdentity(accessGroups: [ClientIdentity.sharedGroup]))
    }
}
