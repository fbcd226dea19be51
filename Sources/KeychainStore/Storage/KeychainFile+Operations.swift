#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension KeychainFile {
    /// Adds an item.
    ///
    /// Follows SecItemAdd: the access group defaults to the caller's first group (a group not
    /// held is `errSecMissingEntitlement`); accessibility defaults to `ak` (`dk` for certificates);
    /// `sync` and `tomb` default to 0; absent primary-key attributes are written as their
    /// defaults; creation and modification dates are set to now whatever the caller gave. A live
    /// item with the same primary key is `errSecDuplicateItem`; a tombstone is replaced, keeping
    /// its persistent reference.
    ///
    /// - Parameters:
    ///   - attributes: the item's attributes, coerced for their kinds.
    ///   - secret: the item's data (`kSecValueData`), or nil for none.
    ///   - accessControl: the item's access control, stored as its `accc`; when it requires
    ///     authentication the secret is also sealed to the presence key, which needs a keychain
    ///     with a password (else `errSecNotAvailable`).
    package func add(_ itemClass: ItemClass, attributes: [String: AttributeValue], secret: Data?,
                    identity: ClientIdentity, accessControl: ItemAccessControl? = nil) throws(KeychainStoreError) -> StoredItem {
        try add([NewItem(itemClass, attributes: attributes, secret: secret, accessControl: accessControl)], identity: identity)[0]
    }

    /// An added item's attributes as they are stored: what ``add(_:attributes:secret:identity:accessControl:)``
    /// writes for `attributes` (the access group, accessibility, flags and primary-key defaults
    /// filled in, the digest computed), with the dates now unless `dates` gives them (seconds
    /// since 2001, as `cdat` and `mdat` hold them).
    func newItemAttributes(_ itemClass: ItemClass, _ attributes: [String: AttributeValue], identity: ClientIdentity,
                           accessControl: ItemAccessControl?,
                           dates: (created: Double, modified: Double)? = nil) throws(KeychainStoreError) -> [String: AttributeValue] {
        var item = attributes
        item[AttributeName.persistentReference] = nil
        item[AttributeName.multiUser] = .data(Data())
        item[AttributeName.uuid] = nil
        item[AttributeName.accessControl] = accessControl.map { .data($0.encoded) }

        let group = item[AttributeName.accessGroup]?.stringValue ?? identity.defaultGroup
        guard identity.canWrite(group) else { throw .missingEntitlement(group: group) }
        item[AttributeName.accessGroup] = .string(group)

        if let pdmn = item[AttributeName.accessible] {
            guard let protection = pdmn.stringValue.flatMap(ProtectionClass.init(pdmn:)) else {
                throw .parameter("kSecAttrAccessible is not one of the accessibility constants")
            }
            item[AttributeName.accessible] = .string(protection.pdmn)
        } else {
            item[AttributeName.accessible] = .string(KeychainFile.defaultProtection(itemClass, group: group).pdmn)
        }
        for flag in [AttributeName.synchronizable, AttributeName.tombstone] {
            item[flag] = .integer((item[flag]?.integerValue ?? 0) == 0 ? 0 : 1)
        }
        for attribute in ItemTable(itemClass).schema.attributes where attribute.hasDefault && item[attribute.name] == nil {
            item[attribute.name] = attribute.defaultValue
        }
        let now = referenceNow()
        item[AttributeName.creationDate] = .date(dates?.created ?? now)
        item[AttributeName.modificationDate] = .date(dates?.modified ?? now)
        item[AttributeName.sha1] = itemDigest(item, schema: ItemTable(itemClass).schema)
        return item
    }

    /// Security's default accessibility: `dku` for the push service's group, `dk` for
    /// certificates, `ak` for everything else.
    static func defaultProtection(_ itemClass: ItemClass, group: String) -> ProtectionClass {
        if group == "com.apple.apsd" { return .alwaysThisDeviceOnly }
        return itemClass == .certificate ? .always : .whenUnlocked
    }

    /// Finds items matching `query`, in insertion order, at most `limit` of them (nil: all).
    /// Secrets are decrypted only when `includeSecrets` is true.
    ///
    /// Items whose access control requires authentication need it even for an attribute-only
    /// read: `authorize` is asked for each of them, after the keychain's lock is released (it may
    /// prompt the user), and either gives a credential that opens them or skips them. Without
    /// `authorize` such items fail the call with `errSecInteractionNotAllowed`.
    package func find(_ query: ItemQuery, identity: ClientIdentity, limit: Int?, includeSecrets: Bool,
                     authorize: ItemAuthorizer? = nil) throws(KeychainStoreError) -> [StoredItem] {
        var stamp: KeychainChangeStamp?
        return try find(query, identity: identity, limit: limit, includeSecrets: includeSecrets, authorize: authorize,
                        stamp: &stamp, recordingStamp: false)
    }

    /// ``find(_:identity:limit:includeSecrets:authorize:)``, also giving the file's
    /// ``KeychainChangeStamp`` as it was when the items were read (taken under the same lock, so
    /// any later change moves the stamp).
    package func find(_ query: ItemQuery, identity: ClientIdentity, limit: Int?, includeSecrets: Bool,
                     authorize: ItemAuthorizer? = nil, stamp: inout KeychainChangeStamp?) throws(KeychainStoreError) -> [StoredItem] {
        try find(query, identity: identity, limit: limit, includeSecrets: includeSecrets, authorize: authorize,
                 stamp: &stamp, recordingStamp: true)
    }

    private func find(_ query: ItemQuery, identity: ClientIdentity, limit: Int?, includeSecrets: Bool, authorize: ItemAuthorizer?,
                      stamp: inout KeychainChangeStamp?, recordingStamp: Bool) throws(KeychainStoreError) -> [StoredItem] {
        try authorizedRows(query, identity: identity, limit: limit, includeSecrets: includeSecrets, authorize: authorize,
                           stamp: &stamp, recordingStamp: recordingStamp).map {
            StoredItem(itemClass: query.itemClass, persistentReference: $0.persistentReference,
                       attributes: $0.attributes, secret: includeSecrets ? $0.secret : nil)
        }
    }

    /// The rows behind ``find(_:identity:limit:includeSecrets:authorize:stamp:)``, with what
    /// `authorize` refused left out.
    func authorizedRows(_ query: ItemQuery, identity: ClientIdentity, limit: Int?, includeSecrets: Bool, authorize: ItemAuthorizer?,
                        stamp: inout KeychainChangeStamp?, recordingStamp: Bool) throws(KeychainStoreError) -> [MatchedRow] {
        var taken: KeychainChangeStamp?
        var rows = try withReadState { state throws(KeychainStoreError) -> [MatchedRow] in
            if recordingStamp { taken = state.changeStamp }
            return try state.matchingRows(query, identity: identity, limit: limit, openSecrets: includeSecrets)
        }
        stamp = taken
        var skipped = 0
        rows = try KeychainFile.authorized(rows, table: ItemTable(query.itemClass), authorize: authorize, skipped: &skipped)
        if skipped > 0, let limit, rows.count < limit {
            // Skipped items must not use up the limit: read again without it.
            rows = try withReadState { state throws(KeychainStoreError) -> [MatchedRow] in
                try state.matchingRows(query, identity: identity, limit: nil, openSecrets: includeSecrets)
            }
            rows = Array(try KeychainFile.authorized(rows, table: ItemTable(query.itemClass), authorize: authorize,
                                                     skipped: &skipped).prefix(limit))
        }
        return rows
    }

    /// Updates every item matching `query`, in one transaction; returns how many.
    ///
    /// Follows SecItemUpdate: `mdat` becomes now (and always later than before), `cdat` may be
    /// changed, `musr` is ignored. An update that changes an item's primary key onto a live item
    /// is `errSecDuplicateItem` and changes nothing; onto a tombstone it replaces the tombstone.
    /// A synchronizable item whose primary key changes leaves a tombstone for the old key. No
    /// match is `errSecItemNotFound`.
    ///
    /// - Parameters:
    ///   - changes: attributes to set, coerced for their kinds.
    ///   - secret: new data for the items, or nil to keep theirs.
    ///   - tombstones: `kSecUseTombstones`: whether a synchronizable item whose primary key
    ///     changes leaves a tombstone (nil: yes, Security's default; false: no).
    ///   - accessControl: what happens to the items' access control (``AccessControlChange``).
    ///   - authorize: asked for each matched item whose access control requires authentication
    ///     (updating one needs it, as on Apple platforms); without it such items fail the call
    ///     with `errSecInteractionNotAllowed`. Skipping is not an answer here: it is `errSecParam`.
    @discardableResult
    package func update(_ query: ItemQuery, changes: [String: AttributeValue], secret: Data?,
                       identity: ClientIdentity, tombstones: Bool? = nil, accessControl: AccessControlChange = .keep,
                       authorize: ItemAuthorizer? = nil) throws(KeychainStoreError) -> Int {
        var changes = changes
        // Most updates give only a new secret: no attribute to check.
        if !changes.isEmpty { try Self.normalize(&changes, identity: identity) }
        if let group = query.filters[AttributeName.accessGroup]?.stringValue, !identity.canWrite(group) {
            throw .missingEntitlement(group: group)
        }
        let table = ItemTable(query.itemClass)
        // One transaction that writes only if no match needs an authentication it lacks. Most
        // updates touch no protected item and are done in this one pass.
        func attempt(_ credentials: [Data: PresenceCredential]) throws(KeychainStoreError) -> Int? {
            try withItemTransaction { state throws(KeychainStoreError) -> Int? in
                let rows = try state.matchingRows(query, identity: identity, limit: nil, openSecrets: false,
                                                  keepingAttributesKeys: true)
                guard !rows.isEmpty else { throw .itemNotFound }
                if rows.contains(where: { $0.needsAuthentication && credentials[$0.persistentReference] == nil }) {
                    return nil  // nothing written yet
                }
                for var row in rows {
                    guard identity.canWrite(row.attributes[AttributeName.accessGroup]?.stringValue ?? "") else {
                        throw .missingEntitlement(group: row.attributes[AttributeName.accessGroup]?.stringValue ?? "?")
                    }
                    if row.needsAuthentication { row.credential = credentials[row.persistentReference] }
                    try state.update(row, in: table, changes: changes, secret: secret, tombstones: tombstones,
                                     accessControl: accessControl)
                }
                return rows.count
            }
        }
        if let count = try attempt([:]) { return count }

        // Some match is protected: authenticate outside the lock (it may wait for a person), then
        // try again carrying each credential by its item's persistent reference.
        let protectedRows = try withState { state throws(KeychainStoreError) -> [MatchedRow] in
            try state.matchingRows(query, identity: identity, limit: nil, openSecrets: false).filter(\.needsAuthentication)
        }
        var skipped = 0
        let credentials = Dictionary(
            try KeychainFile.authorized(protectedRows, table: table, authorize: authorize, skipped: &skipped)
                .map { ($0.persistentReference, $0.credential!) },
            uniquingKeysWith: { first, _ in first })
        if skipped > 0 { throw .parameter("kSecUseAuthenticationUISkip is not allowed in an update") }
        // An item that became protected after the authentication round has no credential.
        guard let count = try attempt(credentials) else { throw .interactionNotAllowed }
        return count
    }

    /// An update's attribute changes as they are stored: the attributes an update cannot set
    /// dropped (Security ignores them too), the access group checked against the caller's
    /// entitlements, the accessibility and the flags in their stored forms.
    private static func normalize(_ changes: inout [String: AttributeValue],
                                  identity: ClientIdentity) throws(KeychainStoreError) {
        for ignored in [AttributeName.multiUser, AttributeName.modificationDate, AttributeName.persistentReference,
                        AttributeName.uuid, AttributeName.sha1, AttributeName.accessControl] { changes[ignored] = nil }
        if let group = changes[AttributeName.accessGroup] {
            guard let name = group.stringValue, identity.canWrite(name) else { throw .missingEntitlement(group: group.stringValue ?? "?") }
        }
        if let pdmn = changes[AttributeName.accessible] {
            guard let protection = pdmn.stringValue.flatMap(ProtectionClass.init(pdmn:)) else {
                throw .parameter("kSecAttrAccessible is not one of the accessibility constants")
            }
            changes[AttributeName.accessible] = .string(protection.pdmn)
        }
        for flag in [AttributeName.synchronizable, AttributeName.tombstone] where changes[flag] != nil {
            changes[flag] = .integer(changes[flag]?.integerValue == 0 ? 0 : 1)
        }
    }

    /// Deletes every item matching `query`, in one transaction; returns how many. A
    /// synchronizable item becomes a tombstone (invisible to normal queries); others are removed.
    /// No match is `errSecItemNotFound`.
    ///
    /// - Parameter tombstones: `kSecUseTombstones`, which overrides that choice both ways: true
    ///   leaves a tombstone for every deleted item, false for none (nil: synchronizable items only).
    @discardableResult
    package func delete(_ query: ItemQuery, identity: ClientIdentity, tombstones: Bool? = nil) throws(KeychainStoreError) -> Int {
        if let group = query.filters[AttributeName.accessGroup]?.stringValue, !identity.canWrite(group) {
            throw .missingEntitlement(group: group)
        }
        let table = ItemTable(query.itemClass)
        let outcome = try withItemTransaction({ state throws(KeychainStoreError) -> (count: Int, erase: Bool) in
            let rows = try state.matchingRows(query, identity: identity, limit: nil, openSecrets: false)
            guard !rows.isEmpty else { throw .itemNotFound }
            for row in rows {
                guard identity.canWrite(row.attributes[AttributeName.accessGroup]?.stringValue ?? "") else {
                    throw .missingEntitlement(group: row.attributes[AttributeName.accessGroup]?.stringValue ?? "?")
                }
                let isTombstone = row.attributes[AttributeName.tombstone]?.integerValue == 1
                if tombstones ?? (row.attributes[AttributeName.synchronizable]?.integerValue == 1 && !isTombstone) {
                    // Sealed under a fresh key, not the item's (an update's reuse): nothing of
                    // the deleted item's blobs stays, its key's wrapping included.
                    let tombstone = KeychainFile.tombstone(of: row.attributes, schema: table.schema)
                    try state.writeRow(table, .existing(row.rowid), persistentReference: row.persistentReference,
                                       attributes: tombstone, sealedSecret: nil,
                                       changedNames: KeychainFile.State.attributeNames(differingFrom: row.attributes, in: tombstone))
                } else {
                    try state.deleteRow(table, rowid: row.rowid, persistentReference: row.persistentReference)
                }
            }
            return (rows.count, rows.contains(where: KeychainFile.deletionIsErasedFromWAL))
        }, afterCommit: { state, outcome in
            if outcome.erase { state.eraseDeletedFromWAL() }
        })
        return outcome.count
    }

    /// A tombstone keeps the primary key, accessibility, creation date and group of the deleted
    /// item, with a new modification date and no secret.
    static func tombstone(of attributes: [String: AttributeValue], schema: ItemSchema) -> [String: AttributeValue] {
        var tombstone: [String: AttributeValue] = [:]
        for name in schema.primaryKey + [AttributeName.accessible, AttributeName.creationDate] { tombstone[name] = attributes[name] }
        tombstone[AttributeName.tombstone] = .integer(1)
        tombstone[AttributeName.modificationDate] = .date(laterThan(attributes[AttributeName.modificationDate]))
        tombstone[AttributeName.sha1] = itemDigest(tombstone, schema: schema)
        return tombstone
    }
}

/// Now, or one millisecond after `previous` if now is not later (Security's `SecDbItemMakeYounger`).
func laterThan(_ previous: AttributeValue?) -> Double {
    let now = referenceNow()
    guard case .date(let old)? = previous, old >= now else { return now }
    return old + 0.001
}

extension KeychainFile.State {
    func update(_ row: MatchedRow, in table: ItemTable, changes: [String: AttributeValue], secret: Data?,
                tombstones: Bool? = nil, accessControl: AccessControlChange = .keep) throws(KeychainStoreError) {
        var attributes = row.attributes
        for (name, value) in changes { attributes[name] = value }
        let presenceSealed: Bool
        switch accessControl {
        case .keep:
            presenceSealed = row.needsAuthentication
        case .remove:
            attributes[AttributeName.accessControl] = nil
            presenceSealed = false
        case .set(let control):
            attributes[AttributeName.accessControl] = .data(control.encoded)
            presenceSealed = control.requiresAuthentication
        }
        attributes[AttributeName.modificationDate] = .date(laterThan(row.attributes[AttributeName.modificationDate]))
        attributes[AttributeName.sha1] = itemDigest(attributes, schema: table.schema)
        let newProtection = ProtectionClass(pdmn: attributes[AttributeName.accessible]?.stringValue ?? "") ?? row.protection
        if newProtection == .whenPasscodeSetThisDeviceOnly && newProtection != row.protection && !keybag.hasPassword {
            throw .notAvailable("items that require a passcode cannot be stored in a keychain without a password")
        }

        // What this rewrite can change: the given attributes whose values differ, the access
        // control when told to, and the modification date and digest, which every update sets.
        var changedNames = changes.compactMap { name, value in row.attributes[name] != value ? name : nil }
        // The primary key's index (two MACs) is only worked out when one of its attributes
        // changed: equal values give the same index, and most updates change only the secret
        // or attributes outside the key. Only `changes` can change a primary-key attribute (the
        // ones set here, date, digest and access control, are not part of any key).
        let keyAttributesChanged = changedNames.contains(where: table.schema.primaryKey.contains)
        changedNames += [AttributeName.modificationDate, AttributeName.sha1]
        if case .keep = accessControl {} else { changedNames.append(AttributeName.accessControl) }
        let newKey = keyAttributesChanged ? primaryKeyIndex(table, attributes) : nil
        let keyChanges = keyAttributesChanged && primaryKeyIndex(table, row.attributes) != newKey
        if keyChanges, let newKey, let clash = try self.row(withPrimaryKey: newKey, in: table, excluding: row.rowid) {
            guard clash.isTombstone else { throw .duplicateItem }
            try deleteRow(table, rowid: clash.rowid, persistentReference: clash.persistentReference)
        }

        let sealedSecret = try resealedSecret(row, table: table, protection: newProtection,
                                              presenceSealed: presenceSealed, newSecret: secret)
        try writeRow(table, .existing(row.rowid), persistentReference: row.persistentReference,
                     attributes: attributes, sealedSecret: sealedSecret, primaryKey: newKey, changedNames: changedNames,
                     // A row that becomes a tombstone gets a fresh key, as a delete's does.
                     attributesKey: attributes[AttributeName.tombstone]?.integerValue == 1 ? nil : row.attributesKey)

        // A synchronizable item that moves leaves a tombstone for its old key, with a new
        // identity (unless kSecUseTombstones is false). It is written after the item has left
        // that key, since the key is unique.
        if keyChanges && (tombstones ?? true) && row.attributes[AttributeName.synchronizable]?.integerValue == 1
            && row.attributes[AttributeName.tombstone]?.integerValue != 1 {
            let tombstone = KeychainFile.tombstone(of: row.attributes, schema: table.schema)
            let (rowid, reference) = try newRow(table)
            try writeRow(table, .new(rowid), persistentReference: reference, attributes: tombstone, sealedSecret: nil)
        }
    }
}

extension KeychainFile.State {
    /// A write transaction on items that first checks the file's schema is still the one this
    /// process knows. Another process running a newer version upgrades a keychain when it opens
    /// it, and a write in the old layout (schema 3 changed what `pk` holds) would then be an item
    /// the new lookups cannot find. Inside `BEGIN IMMEDIATE` the check reads a page SQLite
    /// already holds, so it costs one cached statement. Writes reach it through
    /// ``KeychainFile/withItemTransaction(_:afterCommit:)``, which refreshes the lock state in it.
    func itemTransaction<T>(_ body: () throws(KeychainStoreError) -> T) throws(KeychainStoreError) -> T {
        // The transaction's random bytes are drawn together and forgotten with it.
        let outer = writeRandom
        writeRandom = RandomReserve()
        defer { writeRandom = outer }
        return try db.transaction(write: true) { () throws(KeychainStoreError) -> T in
            let version = try KeychainFile.userVersion(db)
            guard version == KeychainFile.schemaVersion else {
                throw version > KeychainFile.schemaVersion
                    ? KeychainFile.newerSchema(version)
                    : KeychainFile.invalidKeychain(db.path, "went back to schema \(version) while it was open")
            }
            return try body()
        }
    }
}
