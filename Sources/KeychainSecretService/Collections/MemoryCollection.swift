import Foundation

/// A collection that lives only in the daemon's memory: the `session` alias, whose items vanish
/// when the daemon exits, as gnome-keyring's session collection does. It has no password: `Lock`
/// locks it for D-Bus clients (its items then answer `IsLocked`) and `Unlock` opens it again
/// without a prompt.
package final class MemoryCollection: SecretCollection, @unchecked Sendable {
    // @unchecked: every stored property below is read and written only while `mutex` is held.
    private let mutex = NSLock()
    private var items: [String: (record: SecretItemRecord, secret: SecretValue)] = [:]
    private var order: [String] = []
    private var nextID = 1
    private var lastModified: UInt64
    private var currentLabel: String
    private var locked = false
    package let created: UInt64

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

    package func search(_ attributes: [String: String]) throws(SecretCollectionError) -> [SecretItemRecord] {
        try checkOpen()
        return mutex.withLock {
            order.compactMap { items[$0]?.record }.filter { record in
                attributes.allSatisfy { record.attributes[$0.key] == $0.value }
            }
        }
    }

    package func searchIncludingLocked(_ attributes: [String: String]) throws(SecretCollectionError) -> (records: [SecretItemRecord], lockedIDs: [String]) {
        (try search(attributes), [])
    }

    /// Never locked, so never asked.
    package func lockedCandidates(_ attributes: [String: String]) -> [String] { [] }

    package func allItems() throws(SecretCollectionError) -> [SecretItemRecord] {
        try checkOpen()
        return mutex.withLock { order.compactMap { items[$0]?.record } }
    }

    package func needsGrant(id: String) -> Bool { false }

    package func grant(password: String) throws(SecretCollectionError) -> AccessGrant {
        throw .failed("the session collection has no password")
    }

    package func item(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) -> SecretItemRecord {
        try checkOpen()
        guard let record = mutex.withLock({ items[id]?.record }) else { throw .noSuchItem }
        return record
    }

    package func secret(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) -> SecretValue {
        try checkOpen()
        guard let secret = mutex.withLock({ items[id]?.secret }) else { throw .noSuchItem }
        return secret
    }

    package func create(label: String, attributes: [String: String], secret: SecretValue,
                        replace: Bool) throws(SecretCollectionError) -> (item: SecretItemRecord, replaced: Bool) {
        try checkOpen()
        let now = Self.now()
        return mutex.withLock {
            if replace, let existing = order.first(where: { items[$0]?.record.attributes == attributes }),
               var record = items[existing]?.record {
                record.label = label
                record.modified = now
                items[existing] = (record, secret)
                lastModified = now
                return (record, true)
            }
            let id = "i\(nextID)"
            nextID += 1
            let record = SecretItemRecord(id: id, label: label, attributes: attributes, created: now, modified: now)
            items[id] = (record, secret)
            order.append(id)
            lastModified = now
            return (record, false)
        }
    }

    package func setSecret(id: String, _ secret: SecretValue) throws(SecretCollectionError) {
        try change(id) { $0.secret = secret }
    }

    package func setLabel(id: String, _ label: String) throws(SecretCollectionError) {
        try change(id) { $0.record.label = label }
    }

    package func setAttributes(id: String, _ attributes: [String: String]) throws(SecretCollectionError) {
        try change(id) { $0.record.attributes = attributes }
    }

    /// Nothing here needs the user, so `grant` is not looked at.
    package func delete(id: String, grant: AccessGrant? = nil) throws(SecretCollectionError) {
        try checkOpen()
        let removed = mutex.withLock {
            guard items.removeValue(forKey: id) != nil else { return false }
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

    private func change(_ id: String,
                        _ body: (inout (record: SecretItemRecord, secret: SecretValue)) -> Void) throws(SecretCollectionError) {
        try checkOpen()
        let now = Self.now()
        let found = mutex.withLock {
            guard var entry = items[id] else { return false }
            body(&entry)
            entry.record.modified = now
            items[id] = entry
            lastModified = now
            return true
        }
        if !found { throw .noSuchItem }
    }
}
