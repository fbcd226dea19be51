package import Foundation
package import KeychainServices
package import KeychainStore

/// The agent's keys, as key items of a keychain: private keys only (the public half is derived
/// from them), each labelled with the comment it was added with.
///
/// An SSH key is told from the keychain's other keys by its application tag
/// (`kSecAttrApplicationTag`), which is `ssh` for a key that signs whenever asked and
/// `ssh-confirm` for one added with the confirm constraint: a tag is part of a key item's
/// primary key and is searched exactly, so the agent never reads another key's item, and a key
/// made by an application under its own tag is never offered to SSH servers. A key added with a
/// lifetime carries its expiry as `kSecAttrEndDate`, so that it expires even when the agent was
/// restarted in between.
package struct SSHKeychainKeys: Sendable {
    package static let plainTag = "ssh"
    package static let confirmTag = "ssh-confirm"

    /// One key the agent offers.
    package struct Entry: @unchecked Sendable {
        package let key: SecKey
        package let blob: [UInt8]
        package let comment: String
        package let confirm: Bool
        package let expiry: Date?
        /// The item's application label (the SHA-1 of the public key), which names it for deletion.
        let applicationLabel: Data
    }

    /// Why the keychain refused: its status (`errSecInteractionNotAllowed` while locked).
    package struct Failure: Error, Sendable {
        package let status: OSStatus
    }

    /// The keychain to use; nil for the process's default (the login keychain in keychaind).
    let context: KeychainContext?
    /// The keys recently signed with, so that a signature need not parse its key again.
    let cache: SSHKeyCache

    package init(context: KeychainContext? = nil) {
        self.context = context
        cache = SSHKeyCache()
    }

    private init(context: KeychainContext, cache: SSHKeyCache) {
        self.context = context
        self.cache = cache
    }

    /// These keys as a caller with `identity` sees them: its searches, adds and deletes made
    /// with that identity's access groups, so that a program finds only the keys of its own
    /// groups and adds into its default group. The parsed-key cache is shared: a search under
    /// the caller's identity decides what it may use, and the cache only spares parsing a key
    /// the search found. Nil when this agent has no keychain of its own to name.
    package func seen(by identity: ClientIdentity) -> SSHKeychainKeys? {
        guard let context else { return nil }
        return SSHKeychainKeys(context: KeychainContext(file: context.file, identity: identity), cache: cache)
    }

    private func inKeychain<T>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        guard let context else { return try body() }
        do {
            return try KeychainContext.withContext(context) { try body() }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(status: errSecInternalError)
        }
    }

    /// Every SSH key of the keychain, in the order they were added. Keys whose lifetime is over
    /// are deleted on the way and not listed.
    package func entries(now: Date = Date()) throws(Failure) -> [Entry] {
        try inKeychain { () throws(Failure) in
            var found: [Entry] = []
            for tag in [Self.plainTag, Self.confirmTag] {
                for item in try items(tag: tag, matching: [kSecMatchLimit: kSecMatchLimitAll]) {
                    if let entry = try entry(of: item, tag: tag, now: now) { found.append(entry) }
                }
            }
            return found
        }
    }

    /// The key whose public key blob this is, or nil when the keychain holds none (or its
    /// lifetime is over). One search by the key's application label, which the blob gives,
    /// rather than every SSH key as ``entries(now:)`` reads: this is the lookup of every
    /// signature (Benchmarks/notes/2026-12-03-ssh-agent-against-openssh.md).
    package func entry(forBlob blob: [UInt8], now: Date = Date()) throws(Failure) -> Entry? {
        guard let label = SSHKeyEncoding.applicationLabel(ofBlob: blob) else { return nil }
        return try inKeychain { () throws(Failure) in
            for tag in [Self.plainTag, Self.confirmTag] {
                for item in try items(tag: tag, matching: [kSecAttrApplicationLabel: label]) {
                    // The label is a hash of the public key: the key found must give the blob asked for.
                    if let found = try entry(of: item, tag: tag, now: now), found.blob == blob { return found }
                }
            }
            return nil
        }
    }

    /// Deletes the keys whose lifetime is over, reading no key.
    package func deleteExpired(now: Date = Date()) throws(Failure) {
        try inKeychain { () throws(Failure) in
            for tag in [Self.plainTag, Self.confirmTag] {
                for item in try items(tag: tag, matching: [kSecMatchLimit: kSecMatchLimitAll]) {
                    _ = expire(item, tag: tag, now: now)
                }
            }
        }
    }

    /// The attributes (with the persistent reference) of the private key items of this tag that
    /// also match `extra`. Only attributes: the keys themselves are read by ``entry(of:tag:now:)``
    /// when ``cache`` does not hold them.
    private func items(tag: String, matching extra: [CFString: Any]) throws(Failure) -> [NSDictionary] {
        var query: [CFString: Any] = [kSecClass: kSecClassKey, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                                      kSecAttrApplicationTag: Data(tag.utf8),
                                      kSecReturnAttributes: true, kSecReturnPersistentRef: true]
        query.merge(extra) { $1 }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else {
            // Locked, most likely: no cached key may outlive that.
            cache.removeAll()
            throw Failure(status: status)
        }
        if let items = result as? [NSDictionary] { return items }
        if let item = result as? NSDictionary { return [item] }
        throw Failure(status: errSecInternalError)
    }

    /// One item of ``items(tag:matching:)`` as an entry, its key and public key blob from the
    /// cache when it holds this version of the item, else read now and cached. Nil for an item
    /// that is not a key, or whose lifetime is over (it is deleted on the way).
    private func entry(of item: NSDictionary, tag: String, now: Date) throws(Failure) -> Entry? {
        guard let persistentReference = item[kSecValuePersistentRef] as? Data,
              let modified = item[kSecAttrModificationDate] as? Date,
              let label = item[kSecAttrApplicationLabel] as? Data,
              !expire(item, tag: tag, now: now) else { return nil }
        let version = SSHKeyCache.ItemVersion(persistentReference: persistentReference, modified: modified)
        let key: SecKey
        let blob: [UInt8]
        if let cached = cache.lookUp(version, now: now) {
            (key, blob) = cached
        } else {
            guard let read = try self.key(persistentReference: persistentReference),
                  let readBlob = SSHKeyEncoding.publicKeyBlob(of: read) else { return nil }
            cache.store(read, blob: readBlob, for: version, now: now)
            (key, blob) = (read, readBlob)
        }
        return Entry(key: key, blob: blob, comment: item[kSecAttrLabel] as? String ?? "",
                     confirm: tag == Self.confirmTag, expiry: Self.expiry(of: item), applicationLabel: label)
    }

    /// The key of the item with this persistent reference; nil when it went in between.
    private func key(persistentReference: Data) throws(Failure) -> SecKey? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass: kSecClassKey, kSecValuePersistentRef: persistentReference,
                                          kSecReturnRef: true] as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let ref = result, CFGetTypeID(ref) == SecKeyGetTypeID() else {
            cache.removeAll()
            throw Failure(status: status == errSecSuccess ? errSecInternalError : status)
        }
        return (ref as! SecKey)
    }

    /// The item's end date as a lifetime. A key item without one reads as the reference date
    /// (2001-01-01), the column's default: that is no lifetime, not one long past.
    private static func expiry(of item: NSDictionary) -> Date? {
        (item[kSecAttrEndDate] as? Date).flatMap { $0.timeIntervalSinceReferenceDate > 0 ? $0 : nil }
    }

    /// Deletes the item when its lifetime is over; true then.
    private func expire(_ item: NSDictionary, tag: String, now: Date) -> Bool {
        guard let expiry = Self.expiry(of: item), expiry <= now else { return false }
        if let label = item[kSecAttrApplicationLabel] as? Data { _ = delete(applicationLabel: label, tag: tag) }
        return true
    }

    /// Stores a key as a keychain key item, replacing the same key added before (its comment
    /// and constraints are then the new ones, as with OpenSSH's agent). The item is marked
    /// sensitive and not extractable, and readable only while the keychain is unlocked; with
    /// `accessControl`, that access control's protection and rules apply instead (a key that
    /// needs the user at each use asks at each signature).
    package func add(_ key: SecKey, comment: String, constraints: SSHKeyConstraints, accessControl: SecAccessControl? = nil,
                     now: Date = Date()) throws(Failure) {
        guard let label = SecKeyCopyAttributes(key).flatMap({ ($0 as NSDictionary)[kSecAttrApplicationLabel] as? Data }) else {
            throw Failure(status: errSecParam)
        }
        // The key replaced, if any, is a version of an item no search finds again.
        cache.removeAll()
        try inKeychain { () throws(Failure) in
            for tag in [Self.plainTag, Self.confirmTag] {
                let status = delete(applicationLabel: label, tag: tag)
                guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
            }
            var attributes: [CFString: Any] = [
                kSecClass: kSecClassKey,
                kSecValueRef: key,
                kSecAttrApplicationTag: Data((constraints.confirm ? Self.confirmTag : Self.plainTag).utf8),
                kSecAttrLabel: comment,
                kSecAttrIsExtractable: false,
                kSecAttrIsSensitive: true,
            ]
            if let accessControl {
                attributes[kSecAttrAccessControl] = accessControl
            } else {
                attributes[kSecAttrAccessible] = kSecAttrAccessibleWhenUnlocked
            }
            if let lifetime = constraints.lifetime {
                attributes[kSecAttrEndDate] = now.addingTimeInterval(TimeInterval(lifetime))
            }
            let status = SecItemAdd(attributes as CFDictionary, nil)
            guard status == errSecSuccess else { throw Failure(status: status) }
        }
    }

    /// Deletes the key whose public key blob this is; false when there is none.
    package func remove(blob: [UInt8]) throws(Failure) -> Bool {
        guard let entry = try entry(forBlob: blob) else { return false }
        cache.removeAll()
        return try inKeychain { () throws(Failure) in
            let status = delete(applicationLabel: entry.applicationLabel, tag: entry.confirm ? Self.confirmTag : Self.plainTag)
            guard status == errSecSuccess else { throw Failure(status: status) }
            return true
        }
    }

    /// Deletes every SSH key (and no other key of the keychain).
    package func removeAll() throws(Failure) {
        cache.removeAll()
        try inKeychain { () throws(Failure) in
            for tag in [Self.plainTag, Self.confirmTag] {
                let status = SecItemDelete([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data(tag.utf8)] as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
            }
        }
    }

    private func delete(applicationLabel: Data, tag: String) -> OSStatus {
        SecItemDelete([kSecClass: kSecClassKey, kSecAttrApplicationLabel: applicationLabel,
                       kSecAttrApplicationTag: Data(tag.utf8)] as CFDictionary)
    }
}
