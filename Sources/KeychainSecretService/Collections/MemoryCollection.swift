import Foundation
package import KeychainStore

/// A collection that lives only in the daemon's memory: the `session` alias, whose items vanish
/// when the daemon exits, as gnome-keyring's session collection does. It has no password: `Lock`
/// locks it for D-Bus clients (its items then answer `IsLocked`) and `Unlock` opens it again
/// without a prompt. Each item belongs to the access group it was created in (its creator's
/// first), and only callers holding that group see it, as in a keychain.
package final class MemoryCollection: SecretCollection, @unchecked Sendable {
    // @unchecked: every stored property below is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var items: [String: Entry] = [:]
    private var order: [String] = []
    private var nextID = 1
    private var lastModified: UInt64
    private var currentLabel: String
    private var locked = false
    package let created: UInt64

    private struct Entry {
        var record: SecretItemRecord
        var secret: SecretValue
        /// The access group the item was created in.
        let group: String

        func isVisible(to identity: ClientIdentity) -> Bool {
            identity.seesAllGroups || identity.accessGroups.contains(group)
        }
    }

    package init(label: String, now: UInt64 = MemoryCollection.now()) {
        self.currentLabel = label
        self.created = now
        self.lastModified = now
    }

    package static func now() -> UInt64 { UInt64(max(0, Date().timeIntervalSince1970)) }

    package var label: String { mutex.withLock { currentLabel } }
    package var modified: UInt64 { mutex.withLock { lastModified } }
    package var isLocked: Bool { mutex.withLock { locked } }

    package func setLabel(_ label: String) throws(SecretCollectionError) {
        mutex.withLock { currentLabel = label }
    }

    /// `.locked` while `Lock` holds the collection.
    private func checkOpen() throws(SecretCollectionError) {
        if isLocked { throw .locked }
    }

    package func search(_ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord] {
        try checkOpen()
        return mutex.withLock {
            visibleRecords(to: identity).filter { record in
                attributes.allSatisfy { record.attributes[$0.key] == $0.value }
            }
        }
    }

    package func searchIncludingLocked(_ attributes: [String: String],
                                       as identity: ClientIdentity) throws(SecretCollectionError) -> (records: [SecretItemRecord], lockedIDs: [String]) {
        (try search(attributes, as: identity), [])
    }

    /// Never locked, so never asked.
    package func lockedCandidates(_ attributes: [String: String], as identity: ClientIdentity) -> [String] { [] }

    package func allItems(as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord] {
        try checkOpen()
        return mutex.withLock { visibleRecords(to: identity) }
    }

    /// In creation order; call with `mutex` held.
    private func visibleRecords(to identity: ClientIdentity) -> [SecretItemRecord] {
        order.compactMap { id in items[id].flatMap { $0.isVisible(to: identity) ? $0.record : nil } }
    }

    /// The entry `id` if `identity` may see it; call with `mutex` held.
    private func visibleEntry(_ id: String, to identity: ClientIdentity) -> Entry? {
        guard let entry = items[id], entry.isVisible(to: identity) else { return nil }
        return entry
    }

    package func needsGrant(id: String, as identity: ClientIdentity) -> Bool { false }

    package func grant(password: String) throws(SecretCollectionError) -> AccessGrant {
        throw .failed("the session collection has no password")
    }

    package func item(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretItemRecord {
        try checkOpen()
        guard let record = mutex.withLock({ visibleEntry(id, to: identity)?.record }) else { throw .noSuchItem }
        return record
    }

    package func secret(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretValue {
        try checkOpen()
        guard let secret = mutex.withLock({ visibleEntry(id, to: identity)?.secret }) else { throw .noSuchItem }
        return secret
    }

    /// Into the caller's first group; `replace` replaces only an item the caller sees.
    package func create(label: String, attributes: [String: String], secret: SecretValue,
                        replace: Bool, as identity: ClientIdentity) throws(SecretCollectionError) -> (item: SecretItemRecord, replaced: Bool) {
        try checkOpen()
        guard let group = identity.accessGroups.first else { throw .failed("this caller has no access group to store an item in") }
        let now = Self.now()
        return mutex.withLock {
            if replace, let existing = order.first(where: { visibleEntry($0, to: identity)?.record.attributes == attributes }),
               var entry = items[existing] {
                entry.record.label = label
                entry.record.modified = now
                entry.secret = secret
                items[existing] = entry
                lastModified = now
                return (entry.record, true)
            }
            let id = "i\(nextID)"
            nextID += 1
            let record = SecretItemRecord(id: id, label: label, attributes: attributes, created: now, modified: now)
            items[id] = Entry(record: record, secret: secret, group: group)
            order.append(id)
            lastModified = now
            return (record, false)
        }
    }

    package func setSecret(id: String, _ secret: SecretValue, as identity: ClientIdentity) throws(SecretCollectionError) {
        try change(id, as: identity) { $0.secret = secret }
    }

    package func setLabel(id: String, _ label: String, as identity: ClientIdentity) throws(SecretCollectionError) {
        try change(id, as: identity) { $0.record.label = label }
    }

    package func setAttributes(id: String, _ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) {
        try change(id, as: identity) { $0.record.attributes = attributes }
    }

    /// Nothing here needs the user, so `grant` is not looked at.
    package func delete(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) {
        try checkOpen()
        let removed = mutex.withLock {
            guard visibleEntry(id, to: identity) != nil else { return false }
            items[id] = nil
            order.removeAll { $0 == id }
            lastModified = Self.now()
            return true
        }
        if !removed { throw .noSuchItem }
    }

    /// Empties the collection (it has no file to delete).
    package func deleteAll() throws(SecretCollectionError) {
        mutex.withLock {
            items = [:]
            order = []
            lastModified = Self.now()
        }
    }

    package func lock() throws(SecretCollectionError) {
        mutex.withLock { locked = true }
    }

    package func unlock(password: String) throws(SecretCollectionError) {
        _ = unlockWithoutPassword()
    }

    package func unlockWithoutPassword() -> Bool {
        mutex.withLock { locked = false }
        return true
    }

    private func change(_ id: String, as identity: ClientIdentity, _ body: (inout Entry) -> Void) throws(SecretCollectionError) {
        try checkOpen()
        let now = Self.now()
        let found = mutex.withLock {
            guard var entry = visibleEntry(id, to: identity) else { return false }
            body(&entry)
            entry.record.modified = now
            items[id] = entry
            lastModified = now
            return true
        }
        if !found { throw .noSuchItem }
    }
}
