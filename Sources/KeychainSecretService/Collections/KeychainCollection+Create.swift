import Foundation
package import KeychainStore

/// `CreateItem` on a keychain: a new item even where one with the same attributes exists, unless
/// the client asks for that one to be replaced, as the Secret Service specification has it.
///
/// The keychain holds one item per primary key, as Apple's does, and two items of equal attribute
/// sets have equal service and account (or server, account, ...). The first such item keeps the
/// plain key, so that `SecItemAdd` of that key still answers `errSecDuplicateItem`; each further
/// one gets a sharing group of its own (``distinctSharingGroup()``): `ggrp` is part of every
/// class's primary key (Security's schema), is absent from the items applications write, and
/// cannot be changed by `SecItemUpdate`, so the items stay apart for as long as they live.
extension KeychainCollection {
    package func create(label: String, attributes: [String: String], secret: SecretValue,
                        replace: Bool, as identity: ClientIdentity) throws(SecretCollectionError) -> (item: SecretItemRecord, replaced: Bool) {
        try checkNotHeld()
        let shape = SecretItemShape(attributes)
        var item = Self.keychainAttributes(shape, label: label, attributes: attributes, contentType: secret.contentType)
        if replace, let match = try replaceable(shape.itemClass, attributes, keyFilters: Self.primaryKeyFilters(item, of: shape.itemClass),
                                                as: identity),
           let replaced = try overwrite(match, with: item, secret: secret.bytes, as: identity) {
            return (replaced, true)
        }
        do {
            return (Self.record(of: try file.add(shape.itemClass, attributes: item, secret: secret.bytes, identity: identity)), false)
        } catch where error.status == SecStatus.duplicateItem {
            // Another item holds the plain key (an equal set, one SecItemAdd wrote, or one that
            // needs the user): this one goes beside it.
        } catch {
            throw Self.translate(error)
        }
        item[AttributeName.sharingGroup] = .string(Self.distinctSharingGroup())
        do {
            return (Self.record(of: try file.add(shape.itemClass, attributes: item, secret: secret.bytes, identity: identity)), false)
        } catch {
            throw Self.translate(error)
        }
    }

    /// The item `CreateItem` with `replace` overwrites: one that holds the same keychain key (its
    /// sharing group aside) and whose attribute set equals the given one, contains it (what
    /// gnome-keyring replaces), or is contained in it (an item `SecItemAdd` or `keychainctl`
    /// wrote shows only what its columns hold, without a client's extra names). Of several, one
    /// whose set is exactly the given one comes first, then the one created first. Items that
    /// need the user are not read, so never replaced: the new item goes beside them.
    func replaceable(_ itemClass: ItemClass, _ attributes: [String: String],
                     keyFilters: [String: AttributeValue], as identity: ClientIdentity) throws(SecretCollectionError) -> StoredItem? {
        let items: [StoredItem]
        do {
            items = try file.find(ItemQuery(itemClass: itemClass, filters: keyFilters), identity: identity, limit: nil,
                                  includeSecrets: false, authorize: Self.skip)
        } catch where error.status == SecStatus.itemNotFound {
            return nil
        } catch {
            throw Self.translate(error)
        }
        var best: (item: StoredItem, exact: Bool, created: Double)?
        for item in items {
            // Every item has a creation date (the engine writes one); one without is not ours to judge.
            let held = SecretItemShape.searchableAttributes(Self.record(of: item).attributes, of: itemClass, for: attributes)
            let exact = held == attributes
            guard exact || Self.set(held, contains: attributes) || Self.set(attributes, contains: held) else { continue }
            guard case .date(let created)? = item.attributes[AttributeName.creationDate] else { continue }
            if let best, best.exact && !exact || best.exact == exact && best.created <= created { continue }
            best = (item, exact, created)
        }
        return best?.item
    }

    /// Writes `item`'s attributes and `secret` over `match`, which keeps its path; nil when the
    /// match was deleted in between (the caller then adds).
    private func overwrite(_ match: StoredItem, with item: [String: AttributeValue],
                           secret: Data, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretItemRecord? {
        let query = ItemQuery(itemClass: match.itemClass, persistentReference: match.persistentReference)
        do {
            try file.update(query, changes: item, secret: secret, identity: identity)
            return try file.find(query, identity: identity, limit: 1, includeSecrets: false, authorize: Self.skip).first.map(Self.record(of:))
        } catch where error.status == SecStatus.itemNotFound {
            return nil
        } catch {
            throw Self.translate(error)
        }
    }

    private static func set(_ outer: [String: String], contains inner: [String: String]) -> Bool {
        inner.allSatisfy { outer[$0.key] == $0.value }
    }

    /// A sharing group no other item has: the prefix says who wrote it, the rest is random
    /// (a version-4 UUID's 122 bits).
    static func distinctSharingGroup() -> String {
        sharingGroupPrefix + UUID().uuidString.lowercased()
    }

    /// How the sharing groups of ``distinctSharingGroup()`` begin.
    static let sharingGroupPrefix = "swift-keychain.secret-service."
}
