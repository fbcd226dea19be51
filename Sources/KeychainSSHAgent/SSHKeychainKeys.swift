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

    package init(context: KeychainContext? = nil) { self.context = context }

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
                var result: CFTypeRef?
                let status = SecItemCopyMatching([kSecClass: kSecClassKey,
                                                  kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                                                  kSecAttrApplicationTag: Data(tag.utf8),
                                                  kSecReturnRef: true, kSecReturnAttributes: true,
                                                  kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, &result)
                if status == errSecItemNotFound { continue }
                guard status == errSecSuccess, let items = result as? [NSDictionary] else { throw Failure(status: status) }
                found += items.compactMap { entry(from: $0, tag: tag, now: now) }
            }
            return found
        }
    }

    /// The key whose public key blob this is, or nil when the keychain holds none (or its
    /// lifetime is over). One search by the key's application label, which the blob gives,
    /// rather than reading every SSH key as ``entries(now:)`` does: this is the lookup of every
    /// signature (Benchmarks/notes/2026-12-03-ssh-agent-against-openssh.md).
    package func entry(forBlob blob: [UInt8], now: Date = Date()) throws(Failure) -> Entry? {
        guard let label = SSHKeyEncoding.applicationLabel(ofBlob: blob) else { return nil }
        return try inKeychain { () throws(Failure) in
            for tag in [Self.plainTag, Self.confirmTag] {
                var result: CFTypeRef?
                let status = SecItemCopyMatching([kSecClass: kSecClassKey,
                                                  kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                                                  kSecAttrApplicationLabel: label,
                                                  kSecAttrApplicationTag: Data(tag.utf8),
                                                  kSecReturnRef: true, kSecReturnAttributes: true] as CFDictionary, &result)
                if status == errSecItemNotFound { continue }
                guard status == errSecSuccess, let item = result as? NSDictionary else { throw Failure(status: status) }
                // The label is a hash of the public key: the key found must give the blob asked for.
                if let found = entry(from: item, tag: tag, now: now), found.blob == blob { return found }
            }
            return nil
        }
    }

    /// One search result as an entry; nil for what is not an SSH key, or one whose lifetime is
    /// over, which is deleted on the way.
    private func entry(from item: NSDictionary, tag: String, now: Date) -> Entry? {
        guard let ref = item[kSecValueRef], CFGetTypeID(ref as CFTypeRef) == SecKeyGetTypeID() else { return nil }
        let key = ref as! SecKey
        guard let blob = SSHKeyEncoding.publicKeyBlob(of: key),
              let label = item[kSecAttrApplicationLabel] as? Data else { return nil }
        // A key item without an end date reads as the reference date (2001-01-01),
        // the column's default: that is no lifetime, not one long past.
        let expiry = (item[kSecAttrEndDate] as? Date).flatMap { $0.timeIntervalSinceReferenceDate > 0 ? $0 : nil }
        if let expiry, expiry <= now {
            _ = delete(applicationLabel: label, tag: tag)
            return nil
        }
        return Entry(key: key, blob: blob, comment: item[kSecAttrLabel] as? String ?? "",
                     confirm: tag == Self.confirmTag, expiry: expiry, applicationLabel: label)
    }

    /// Stores a key as a keychain key item, replacing the same key added before (its comment
    /// and constraints are then the new ones, as with OpenSSH's agent). The item is marked
    /// sensitive and not extractable, and readable only while the keychain is unlocked.
    package func add(_ key: SecKey, comment: String, constraints: SSHKeyConstraints, now: Date = Date()) throws(Failure) {
        guard let label = SecKeyCopyAttributes(key).flatMap({ ($0 as NSDictionary)[kSecAttrApplicationLabel] as? Data }) else {
            throw Failure(status: errSecParam)
        }
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
                kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked,
            ]
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
        return try inKeychain { () throws(Failure) in
            let status = delete(applicationLabel: entry.applicationLabel, tag: entry.confirm ? Self.confirmTag : Self.plainTag)
            guard status == errSecSuccess else { throw Failure(status: status) }
            return true
        }
    }

    /// Deletes every SSH key (and no other key of the keychain).
    package func removeAll() throws(Failure) {
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
