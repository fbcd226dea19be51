import Foundation
import KeychainLocking
package import KeychainStore

/// A keychain file served as a Secret Service collection: read and written through the keychain
/// engine, so that `SecItem*`, `keychainctl` and D-Bus clients see one set of items (the mapping
/// is ``SecretItemShape``).
///
/// Every call is made as a caller's ``ClientIdentity``, which the engine enforces as it does for
/// `SecItem*`: items of groups the caller lacks are invisible, and new items go into its first
/// group. Items whose access control needs the user's presence are read only with an
/// ``AccessGrant`` (the keychain password, given at a prompt); searches list them as locked where
/// the indexes can find them. Items are written with the keychain's default protection (readable
/// while unlocked).
package final class KeychainCollection: SecretCollection {
    package let file: KeychainFile
    /// The label shown until the user gives the keychain one of its own (``setLabel(_:)``).
    let defaultLabel: String
    package let created: UInt64
    /// Set by `lock()` on a keychain without a password, which has nothing to lock it with: its
    /// items are then locked for D-Bus clients alone, until `Unlock` (which needs no prompt).
    private let heldLocked = Locked(false)
    /// What ``itemVersions(ids:)`` counts: the shared group alone, since the signals made from
    /// it reach every listener on the bus.
    static let signalView = ClientIdentity.unconfigured
    /// The secret of the last search that found exactly one password by its key.
    private let prefetch = SecretPrefetch()

    package init(file: KeychainFile, label: String) {
        self.file = file
        self.defaultLabel = label
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.url.path)
        self.created = UInt64(max(0, (attributes?[.creationDate] as? Date ?? attributes?[.modificationDate] as? Date ?? Date())
            .timeIntervalSince1970))
    }

    /// The later of the file's and its write-ahead log's modification times.
    package var modified: UInt64 {
        let times = [file.url.path, file.url.path + "-wal"].compactMap {
            (try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date
        }
        return UInt64(max(0, (times.max() ?? Date()).timeIntervalSince1970))
    }

    package var isLocked: Bool { heldLocked.withLock { $0 } || file.isLocked }

    /// The keychain's own label (kept in its file), else the one it was served with.
    package var label: String { file.label ?? defaultLabel }

    package func setLabel(_ label: String) throws(SecretCollectionError) {
        do { try file.setLabel(label) } catch { throw Self.translate(error) }
    }

    /// `.locked` while `lock()` holds a keychain that has no password.
    func checkNotHeld() throws(SecretCollectionError) {
        if heldLocked.withLock({ $0 }) { throw .locked }
    }

    // MARK: Reading

    package func search(_ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord] {
        var skipped = 0
        return try search(attributes, as: identity, skipped: &skipped)
    }

    /// Only when a search passed over items that need the user does it ask the indexes which
    /// they are: most searches meet none, and the extra query is then saved.
    package func searchIncludingLocked(_ attributes: [String: String],
                                       as identity: ClientIdentity) throws(SecretCollectionError) -> (records: [SecretItemRecord], lockedIDs: [String]) {
        var skipped = 0
        let records = try search(attributes, as: identity, skipped: &skipped)
        guard skipped > 0 else { return (records, []) }
        let readable = Set(records.map(\.id))
        return (records, lockedCandidates(attributes, as: identity).filter { !readable.contains($0) })
    }

    /// The search; `skipped` counts the items passed over because they need the user.
    private func search(_ attributes: [String: String], as identity: ClientIdentity, skipped: inout Int) throws(SecretCollectionError) -> [SecretItemRecord] {
        try checkNotHeld()
        var records: [SecretItemRecord] = []
        var seen: Set<String> = []
        func consider(_ items: [StoredItem], stored: StoredAttributes?? = nil) {
            for item in items {
                let record = stored.map { Self.record(of: item, stored: $0) } ?? Self.record(of: item)
                let searchable = SecretItemShape.searchableAttributes(record.attributes, of: item.itemClass, for: attributes)
                guard !seen.contains(record.id), attributes.allSatisfy({ searchable[$0.key] == $0.value }) else { continue }
                seen.insert(record.id)
                records.append(record)
            }
        }
        // Generic passwords: by service and account when the search names either (every item of
        // that shape has both), plus the items kept whole, which are one kind; otherwise all.
        let genericFilters = SecretItemShape.genericFilters(attributes)
        if genericFilters.isEmpty {
            consider(try find(identity, skipped: &skipped, .genericPassword, [:]))
        } else if genericFilters.count == 2 {
            // A generic password's whole key: the search libsecret makes to look a password up,
            // which it follows with a request for that one item's secret. Keep the secret, still
            // sealed, for that request: ``openKeptSecret()`` opens it once this answer is out, and
            // the request then costs no keychain read at all while the file is unchanged
            // (``SecretPrefetch``).
            let found = try findKeepingSecretsSealed(identity, skipped: &skipped, .genericPassword, genericFilters)
            let items = found.map(\.item)
            // The record is read once, for the answer and the content type alike.
            let stored = items.count == 1 ? StoredAttributes(items[0].attributes[AttributeName.generic]) : nil
            consider(items, stored: items.count == 1 ? .some(stored) : nil)
            prefetch.keep(found, contentType: stored?.contentType ?? "text/plain", matching: records, for: identity)
            // An item kept whole never has both service and username (that set is a generic
            // password's shape), so a search naming both cannot match one: no query for them,
            // which no index serves (a scan of every generic password).
        } else {
            consider(try find(identity, skipped: &skipped, .genericPassword, genericFilters))
            consider(try find(identity, skipped: &skipped, .genericPassword, [AttributeName.description: .string(SecretItemShape.otherKind)]))
        }
        // Internet passwords hold only the network schema's attributes.
        if let filters = NetworkFields.searchFilters(attributes) { consider(try find(identity, skipped: &skipped, .internetPassword, filters)) }
        return records
    }

    /// From the blind indexes alone: generic passwords by `service`/`username`, internet passwords
    /// by the network attributes, everything for an empty search. A search on other attributes
    /// cannot be answered while locked and lists nothing.
    package func lockedCandidates(_ attributes: [String: String], as identity: ClientIdentity) -> [String] {
        var ids: [String] = []
        func add(_ itemClass: ItemClass, _ filters: [String: AttributeValue]) {
            let prefix = itemClass == .internetPassword ? "i" : "g"
            let references = (try? file.indexedCandidates(ItemQuery(itemClass: itemClass, filters: filters), identity: identity)) ?? nil
            ids += (references ?? []).map { prefix + Self.hex($0) }
        }
        if attributes.keys.allSatisfy(SecretItemShape.genericAttributes.contains) {
            add(.genericPassword, SecretItemShape.genericFilters(attributes))
        }
        if let filters = NetworkFields.searchFilters(attributes) { add(.internetPassword, filters) }
        return ids
    }

    package func allItems(as identity: ClientIdentity) throws(SecretCollectionError) -> [SecretItemRecord] {
        try search([:], as: identity)
    }

    package func item(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretItemRecord {
        Self.record(of: try stored(id: id, withSecret: false, grant: grant, as: identity))
    }

    /// Opens the secret the last search kept sealed (see ``SecretPrefetch``); a secret that
    /// does not open (the file changed, or damage) is dropped, and its request reads the item.
    @discardableResult
    package func openKeptSecret() -> Bool {
        prefetch.open { sealed in try? file.openSealedSecret(sealed) }
    }

    package func secret(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> SecretValue {
        try checkNotHeld()
        if grant == nil, let kept = prefetch.take(id: id, for: identity, current: { try? file.changeStamp() }) { return kept }
        let item = try stored(id: id, withSecret: true, grant: grant, as: identity)
        return SecretValue(bytes: item.secret ?? Data(), contentType: StoredAttributes(item.attributes[AttributeName.generic])?.contentType ?? "text/plain")
    }

    // MARK: Writing

    /// Filters that select the items whose primary key `item` would have, their sharing group
    /// aside: each key attribute it gives, or the default an add writes in its place. (Not its
    /// other attributes: an item that holds the key may have been written by SecItemAdd, without
    /// our kind or label.) The access group, `sync` and `musr` are the engine's to add. The
    /// sharing group, which `item` never gives and which has no default, is not filtered on, so
    /// the items ``create(label:attributes:secret:replace:)`` set apart are among the matches.
    static func primaryKeyFilters(_ item: [String: AttributeValue], of itemClass: ItemClass) -> [String: AttributeValue] {
        var filters: [String: AttributeValue] = [:]
        let engineOwned: Set<String> = [AttributeName.accessGroup, AttributeName.synchronizable, AttributeName.multiUser]
        for name in itemClass.schema.primaryKey where !engineOwned.contains(name) {
            guard let attribute = itemClass.schema.attribute(name) else { continue }
            if let value = item[name] {
                filters[name] = value
            } else if attribute.hasDefault {
                filters[name] = attribute.defaultValue
            }
        }
        return filters
    }

    /// The keychain attributes an item of this collection is stored with: its shape's key
    /// attributes and label, and for a generic password the whole set and the content type.
    static func keychainAttributes(_ shape: SecretItemShape, label: String, attributes: [String: String],
                                   contentType: String) -> [String: AttributeValue] {
        var item = shape.keyAttributes
        item[AttributeName.label] = .string(label)
        if shape.itemClass == .genericPassword {
            item[AttributeName.generic] = .data(StoredAttributes(attributes: attributes, contentType: contentType).encoded)
        }
        return item
    }

    package func setSecret(id: String, _ secret: SecretValue, as identity: ClientIdentity) throws(SecretCollectionError) {
        let current = try stored(id: id, withSecret: false, grant: nil, as: identity)
        var changes: [String: AttributeValue] = [:]
        if var record = StoredAttributes(current.attributes[AttributeName.generic]), record.contentType != secret.contentType {
            record.contentType = secret.contentType
            changes[AttributeName.generic] = .data(record.encoded)
        }
        try update(id: id, changes: changes, secret: secret.bytes, as: identity)
    }

    package func setLabel(id: String, _ label: String, as identity: ClientIdentity) throws(SecretCollectionError) {
        try update(id: id, changes: [AttributeName.label: .string(label)], secret: nil, as: identity)
    }

    /// Changes the attribute set. A set of another shape (a generic password's attributes
    /// turned into a network password's) would be another kind of keychain item with another
    /// path, so it is refused with `invalidArguments`.
    package func setAttributes(id: String, _ attributes: [String: String], as identity: ClientIdentity) throws(SecretCollectionError) {
        let current = try stored(id: id, withSecret: false, grant: nil, as: identity)
        let shape = SecretItemShape(attributes)
        guard shape.itemClass == current.itemClass else {
            throw .invalidArguments("these attributes belong to another kind of keychain item; create a new item instead")
        }
        var changes = shape.keyAttributes
        if shape.itemClass == .genericPassword {
            let contentType = StoredAttributes(current.attributes[AttributeName.generic])?.contentType ?? "text/plain"
            changes[AttributeName.generic] = .data(StoredAttributes(attributes: attributes, contentType: contentType).encoded)
            if case .other = shape {} else { changes[AttributeName.description] = .string("") }
        }
        // Onto the keychain key of another item (a set equal to another's, say): the item goes
        // beside it with a sharing group of its own, as CreateItem puts a second such item.
        try update(id: id, changes: changes, secret: nil, setApartOnDuplicate: true, as: identity)
    }

    /// The keychain itself lets any process of the user delete such an item without asking
    /// (`SecItemDelete` does not authenticate, as on Apple platforms); the Secret Service shows
    /// it as locked, so a D-Bus client must hold the same grant to delete it as to read it.
    package func delete(id: String, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) {
        // Throws `.locked` for an item that needs the user when there is no grant (or one that
        // does not open it), `.noSuchItem` for one that is gone or of another group.
        _ = try stored(id: id, withSecret: false, grant: grant, as: identity)
        let (itemClass, reference) = try Self.parse(id)
        do {
            try file.delete(ItemQuery(itemClass: itemClass, persistentReference: reference), identity: identity)
        } catch {
            throw Self.translate(error)
        }
    }

    package func deleteAll() throws(SecretCollectionError) {
        prefetch.forget()
        do { try KeychainFile.deleteKeychain(at: file.url, open: file) } catch { throw Self.translate(error) }
    }

    // MARK: Lock

    package func lock() throws(SecretCollectionError) {
        prefetch.forget()
        if file.hasPassword {
            file.lock()
        } else {
            heldLocked.withLock { $0 = true }
        }
    }

    package func unlock(password: String) throws(SecretCollectionError) {
        if unlockWithoutPassword() { return }
        do { try file.unlock(password: password) } catch { throw Self.translate(error) }
    }

    package func unlockWithoutPassword() -> Bool {
        guard !file.hasPassword else { return false }
        heldLocked.withLock { $0 = false }
        return true
    }

    // MARK: Changes from other doors

    package func watchedState() -> (locked: Bool, changesByOthers: Int64)? {
        guard let seen = try? file.watchedState() else { return nil }
        return (seen.locked || heldLocked.withLock { $0 }, seen.changesByOthers)
    }

    package func itemVersions(ids: [String]?) -> [String: Int]? {
        var versions: [String: Int] = [:]
        func add(_ itemClass: ItemClass, _ reference: Data? = nil) -> Bool {
            let query = ItemQuery(itemClass: itemClass, persistentReference: reference)
            guard let found = (try? file.itemVersions(query, identity: Self.signalView)) ?? nil else { return false }
            let prefix = itemClass == .internetPassword ? "i" : "g"
            for (reference, version) in found { versions[prefix + Self.hex(reference)] = version }
            return true
        }
        if let ids {
            for id in ids {
                guard let (itemClass, reference) = try? Self.parse(id) else { continue }
                guard add(itemClass, reference) else { return nil }
            }
        } else {
            guard add(.genericPassword), add(.internetPassword) else { return nil }
        }
        return versions
    }

    // MARK: Plumbing

    /// Protected items are left out of Secret Service answers rather than failing them.
    static func skip(_ accessControl: Data?) -> AuthorizationOutcome { .skip }

    private func find(_ identity: ClientIdentity, skipped: inout Int, _ itemClass: ItemClass,
                      _ filters: [String: AttributeValue]) throws(SecretCollectionError) -> [StoredItem] {
        try findKeepingSecretsSealed(identity, skipped: &skipped, itemClass, filters, keepSecrets: false).map(\.item)
    }

    /// The items matching `filters`, each with its secret still sealed (when `keepSecrets`);
    /// items that need the user are passed over and counted in `skipped`.
    private func findKeepingSecretsSealed(_ identity: ClientIdentity, skipped: inout Int, _ itemClass: ItemClass, _ filters: [String: AttributeValue],
                                          keepSecrets: Bool = true) throws(SecretCollectionError) -> [(item: StoredItem, secret: SealedSecret?)] {
        var passedOver = 0
        defer { skipped += passedOver }
        let query = ItemQuery(itemClass: itemClass, filters: filters)
        let passOver: ItemAuthorizer = { _ in
            passedOver += 1
            return .skip
        }
        do {
            if keepSecrets { return try file.findKeepingSecretsSealed(query, identity: identity, authorize: passOver) }
            return try file.find(query, identity: identity, limit: nil, includeSecrets: false, authorize: passOver).map { ($0, nil) }
        } catch where error.status == SecStatus.itemNotFound {
            return []
        } catch {
            throw Self.translate(error)
        }
    }

    package func needsGrant(id: String, as identity: ClientIdentity) -> Bool {
        guard let (itemClass, reference) = try? Self.parse(id), !isLocked,
              (try? stored(id: id, withSecret: false, grant: nil, as: identity)) == nil else { return false }
        let candidates = try? file.indexedCandidates(ItemQuery(itemClass: itemClass, persistentReference: reference), identity: identity)
        return candidates?.isEmpty == false
    }

    package func grant(password: String) throws(SecretCollectionError) -> AccessGrant {
        do {
            return AccessGrant(credential: try file.authenticate(password: password))
        } catch {
            throw Self.translate(error)
        }
    }

    /// An item by id. One that needs the user is opened with `grant`, and without one it is
    /// `.locked` (it exists, by its index row, but cannot be read).
    private func stored(id: String, withSecret: Bool, grant: AccessGrant?, as identity: ClientIdentity) throws(SecretCollectionError) -> StoredItem {
        try checkNotHeld()
        let (itemClass, reference) = try Self.parse(id)
        let query = ItemQuery(itemClass: itemClass, persistentReference: reference)
        do {
            let items: [StoredItem]
            if let grant {
                items = try file.find(query, identity: identity, limit: 1, includeSecrets: withSecret,
                                      authorize: { _ in .credential(grant.credential) })
            } else {
                items = try file.find(query, identity: identity, limit: 1, includeSecrets: withSecret, authorize: Self.skip)
            }
            guard let item = items.first else {
                let exists = (try? file.indexedCandidates(query, identity: identity))?.isEmpty == false
                throw exists ? SecretCollectionError.locked : SecretCollectionError.noSuchItem
            }
            guard item.attributes[AttributeName.synchronizable]?.integerValue != 1 else { throw SecretCollectionError.noSuchItem }
            return item
        } catch let error as KeychainStoreError {
            if error.status == SecStatus.itemNotFound { throw .noSuchItem }
            throw Self.translate(error)
        } catch let error as SecretCollectionError {
            throw error
        } catch {
            throw .noSuchItem
        }
    }

    private func update(id: String, changes: [String: AttributeValue], secret: Data?,
                        setApartOnDuplicate: Bool = false, as identity: ClientIdentity) throws(SecretCollectionError) {
        try checkNotHeld()
        let (itemClass, reference) = try Self.parse(id)
        let query = ItemQuery(itemClass: itemClass, persistentReference: reference)
        do {
            try file.update(query, changes: changes, secret: secret, identity: identity)
        } catch where setApartOnDuplicate && error.status == SecStatus.duplicateItem {
            var apart = changes
            apart[AttributeName.sharingGroup] = .string(Self.distinctSharingGroup())
            do {
                try file.update(query, changes: apart, secret: secret, identity: identity)
            } catch {
                throw Self.translate(error)
            }
        } catch {
            throw Self.translate(error)
        }
    }

    /// An item's id: `g` or `i` for its class, then its persistent identity in hex.
    static func id(of item: StoredItem) -> String {
        (item.itemClass == .internetPassword ? "i" : "g") + hex(item.persistentReference)
    }

    static func hex(_ bytes: Data) -> String {
        // Byte by byte through a table: String(format:) per byte was a visible share of a
        // lookup's time (Benchmarks/notes/2026-11-25-secret-service-lookup-counted.md).
        // Through the raw bytes: Data's own iterator costs a call per byte.
        let digits: StaticString = "0123456789abcdef"
        return bytes.withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: raw.count * 2) { text in
                digits.withUTF8Buffer { digits in
                    for (index, byte) in raw.enumerated() {
                        text[2 * index] = digits[Int(byte >> 4)]
                        text[2 * index + 1] = digits[Int(byte & 0x0f)]
                    }
                }
                return raw.count * 2
            }
        }
    }

    static func parse(_ id: String) throws(SecretCollectionError) -> (ItemClass, Data) {
        let utf8 = Array(id.utf8)
        guard utf8.count == 33, let prefix = utf8.first else { throw .noSuchItem }
        let itemClass: ItemClass
        switch prefix {
        case UInt8(ascii: "g"): itemClass = .genericPassword
        case UInt8(ascii: "i"): itemClass = .internetPassword
        default: throw .noSuchItem
        }
        var bytes: [UInt8] = []
        var index = 1
        while index < utf8.count {
            guard let byte = UInt8(String(decoding: utf8[index..<index + 2], as: UTF8.self), radix: 16) else { throw .noSuchItem }
            bytes.append(byte)
            index += 2
        }
        return (itemClass, Data(bytes))
    }

    /// What the Secret Service shows of a keychain item.
    static func record(of item: StoredItem) -> SecretItemRecord {
        record(of: item, stored: StoredAttributes(item.attributes[AttributeName.generic]))
    }

    /// ``record(of:)`` with the item's stored attribute record already read.
    static func record(of item: StoredItem, stored: StoredAttributes?) -> SecretItemRecord {
        let attributes: [String: String]
        if let stored {
            attributes = stored.attributes
        } else if item.itemClass == .internetPassword {
            attributes = NetworkFields.attributes(of: item.attributes)
        } else {
            attributes = SecretItemShape.attributes(ofGenericPassword: item.attributes)
        }
        return SecretItemRecord(id: id(of: item), label: item.attributes[AttributeName.label]?.text ?? "",
                                attributes: attributes,
                                created: unixSeconds(item.attributes[AttributeName.creationDate]),
                                modified: unixSeconds(item.attributes[AttributeName.modificationDate]))
    }

    private static func unixSeconds(_ value: AttributeValue?) -> UInt64 {
        guard case .date(let sinceReference)? = value else { return 0 }
        return UInt64(max(0, sinceReference + Date.timeIntervalBetween1970AndReferenceDate))
    }

    static func translate(_ error: KeychainStoreError) -> SecretCollectionError {
        switch error.status {
        case SecStatus.interactionNotAllowed: return .locked
        case SecStatus.itemNotFound: return .noSuchItem
        case SecStatus.authFailed: return .failed("the password is not the keychain's password")
        case SecStatus.param: return .invalidArguments("the keychain refused these attributes")
        default: return .failed("the keychain answered with status \(error.status)")
        }
    }
}
