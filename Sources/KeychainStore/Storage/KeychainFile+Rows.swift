#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Crypto

extension KeychainFile.State {
    /// ``ItemTable/updateSQL(_:)`` for `columns`, made once per set of columns and remembered like
    /// the search texts: an update changes the same few columns again and again (the secret and
    /// the sealed attributes, most often), and making the text cost every update a few thousand
    /// instructions. Bounded.
    func updateSQL(_ table: ItemTable, _ columns: [String]) -> String {
        let shape = KeychainFile.UpdateShape(table: table.name, columns: columns)
        if let known = updateTexts[shape] { return known }
        let sql = table.updateSQL(columns)
        if updateTexts.count >= 128 { updateTexts.removeAll(keepingCapacity: true) }
        updateTexts[shape] = sql
        return sql
    }

    /// The blind index of a value that many calls repeat, remembered: a caller's access groups,
    /// and the lookup pair's first half (an application has a few services for many items).
    /// Each would otherwise cost an HMAC per call (a few percent of one). Bounded; emptied when
    /// full, so a caller cycling through many values only loses the saving.
    func rememberedIndex(_ name: String, matchBytes: [UInt8]) -> Data {
        let key = KeychainFile.RememberedIndexKey(name: name, bytes: matchBytes)
        if let known = rememberedIndexes[key] { return known }
        let computed = index.index(name, matchBytes: matchBytes)
        if rememberedIndexes.count >= 256 { rememberedIndexes.removeAll(keepingCapacity: true) }
        rememberedIndexes[key] = computed
        return computed
    }

    /// The blind index of an access group (remembered).
    func groupIndex(_ group: String) -> Data {
        rememberedIndex(AttributeName.accessGroup, matchBytes: AttributeValue.string(group).matchBytes(for: .string))
    }

    /// Where a write goes.
    enum RowSlot {
        /// A new row, numbered by ``newRow(_:)``, with the reference made for it there.
        case new(Int64)
        /// A new row, numbered by ``newRow(_:)``, keeping a reference it had elsewhere (a
        /// backup's), which gets a `_refs` entry if it does not name the row.
        case restored(Int64)
        /// An existing row.
        case existing(Int64)
    }

    /// Writes a row: inserts into a new slot, or replaces an existing row's columns.
    ///
    /// - Parameters:
    ///   - primaryKey: the row's primary-key index when the caller already computed it.
    ///   - changedNames: for an existing row, the names of the attributes that may differ from
    ///     the stored ones (more is harmless, fewer is not); only the columns derived from them
    ///     are set, since an unchanged indexed column in the SET list would still cost SQLite an
    ///     index rewrite. Nil sets every column. ``attributeNames(differingFrom:in:)`` finds
    ///     them from two dictionaries; an update knows them from its changes.
    ///   - attributesKey: the key the row's attributes were last sealed under, reused when the
    ///     row keeps its class (see ``ItemSealer/ItemKey``).
    func writeRow(_ table: ItemTable, _ slot: RowSlot, persistentReference: Data,
                  attributes: [String: AttributeValue], sealedSecret: Data?,
                  primaryKey: Data? = nil, changedNames: [String]? = nil,
                  attributesKey: ItemSealer.ItemKey? = nil) throws(KeychainStoreError) {
        guard let protection = attributes[AttributeName.accessible]?.stringValue.flatMap(ProtectionClass.init(pdmn:)) else {
            throw .parameter("invalid accessibility")
        }
        let rowid: Int64?
        switch slot {
        case .new, .restored: rowid = nil
        case .existing(let existing): rowid = existing
        }
        let classKey = try keybag.key(for: protection)
        var plaintext = SecretBinding(sealedSecret: sealedSecret).encoded
        plaintext.append(bytesOf: AttributeCodec.encode(attributes))
        let meta = try ItemSealer.seal(Data(plaintext), part: .attributes, table: table.name, persistentRef: persistentReference,
                                       protection: protection, classKey: classKey, format: ItemSealer.boundFormat,
                                       reusing: attributesKey, reserve: writeRandom)
        // A new row has no stored columns to keep.
        let changedNames = rowid == nil ? nil : changedNames
        // Whether a column derived from these attributes may differ from the stored one.
        func changed(_ names: [String]) -> Bool {
            guard let changedNames else { return true }
            return names.contains { changedNames.contains($0) }
        }
        func changed(_ name: String) -> Bool { changedNames?.contains(name) ?? true }
        // An insert's SQL is made once per class (``ItemTable/insertSQL``), in this order; only
        // an update needs the column names.
        let inserting = rowid == nil
        var columns: [String] = []
        var values: [SQLiteStatement.Value] = []
        values.reserveCapacity(9 + table.indexed.count)
        func set(_ column: String, _ value: @autoclosure () -> SQLiteStatement.Value) {
            if !inserting { columns.append(column) }
            values.append(value())
        }
        switch slot {
        case .new(let newRowid), .restored(let newRowid):
            set("rowid", .integer(newRowid))
            set("persistref", .blob(persistentReference))
        case .existing:
            break
        }
        // The pair's column values are the first 32 bytes of the primary-key index: taken from
        // there when it is written, rather than MACed a second time.
        var pairFirstColumn: Data?, pairSecondColumn: Data?
        if changed(table.schema.primaryKey) {  // the pair's halves are primary-key attributes
            let key = primaryKey ?? primaryKeyIndex(table, attributes)
            set("pk", .blob(key))
            let start = key.startIndex
            if attributes[table.lookupPair.0] != nil { pairFirstColumn = key.subdata(in: start..<start + 16) }
            if attributes[table.lookupPair.1] != nil { pairSecondColumn = key.subdata(in: start + 16..<start + 32) }
        }
        // An indexed column's value: the pair's from the primary key, the others MACed.
        func column(_ attribute: AttributeDescriptor, _ value: AttributeValue?) -> SQLiteStatement.Value {
            guard let value else { return .null }
            if attribute.name == table.lookupPair.0, let pairFirstColumn { return .blob(pairFirstColumn) }
            if attribute.name == table.lookupPair.1, let pairSecondColumn { return .blob(pairSecondColumn) }
            return .blob(index.index(attribute.name, value, kind: attribute.kind))
        }
        if changed(AttributeName.accessGroup) {
            // The remembered index of a caller's group, when the group is text (it always is once
            // an add has normalised it).
            let group = attributes[AttributeName.accessGroup] ?? .string("")
            if case .string(let name) = group {
                set("agrp", .blob(groupIndex(name)))
            } else {
                set("agrp", .blob(index.index(AttributeName.accessGroup, group, kind: .string)))
            }
        }
        if changed(AttributeName.accessible) { set("keyclass", .integer(Int64(protection.rawValue))) }
        if changed(AttributeName.synchronizable) { set("sync", .integer(attributes[AttributeName.synchronizable]?.integerValue == 0 ? 0 : 1)) }
        if changed(AttributeName.tombstone) { set("tomb", .integer((attributes[AttributeName.tombstone]?.integerValue ?? 0) == 0 ? 0 : 1)) }
        if let changedNames {
            for attribute in table.indexed where changedNames.contains(attribute.name) {
                set(attribute.columnName, column(attribute, attributes[attribute.name]))
            }
        } else {
            // Every indexed column, null unless the item has its attribute: found by walking the
            // item's own attributes (a dozen) rather than asking for each column's (two dozen).
            var indexValues = [SQLiteStatement.Value](repeating: .null, count: table.indexed.count)
            for (name, value) in attributes {
                guard let position = table.indexedPositions[name] else { continue }
                indexValues[position] = column(table.indexed[position], value)
            }
            if inserting {
                values += indexValues  // an insert names no columns
            } else {
                for (position, attribute) in table.indexed.enumerated() { set(attribute.columnName, indexValues[position]) }
            }
        }
        set("meta", .blob(meta))
        set("secret", sealedSecret.map { .blob($0) } ?? .null)
        switch slot {
        case .existing(let rowid):
            values.append(.integer(rowid))
            try db.statement(updateSQL(table, columns)).run(values)
        case .new:
            try db.statement(table.insertSQL).run(values)
        case .restored(let rowid):
            try db.statement(table.insertSQL).run(values)
            if !reference(persistentReference, names: rowid) {
                try db.statement("INSERT OR REPLACE INTO \(table.referencesName) (persistref, rowid) VALUES (?, ?)")
                    .run([.blob(persistentReference), .integer(rowid)])
            }
        }
    }

    /// The names of the attributes whose values differ between `previous` and `attributes`
    /// (present in one only, or with different values): the `changedNames` of a rewrite that
    /// knows nothing narrower. Found once, rather than asking each column's attributes of both
    /// dictionaries, which cost an update some seventy lookups.
    static func attributeNames(differingFrom previous: [String: AttributeValue],
                               in attributes: [String: AttributeValue]) -> [String] {
        var names: [String] = []
        for (name, value) in attributes where previous[name] != value { names.append(name) }
        for name in previous.keys where attributes[name] == nil { names.append(name) }
        return names
    }

    /// The `pk` column: the blind indexes of the lookup pair (16 bytes each, the values of their
    /// own columns), then the blind index of the whole primary key. UNIQUE on the whole refuses
    /// duplicates; ordered by the pair, the same index finds items by the pair's first half or
    /// by both halves (``primaryKeyRange(_:)``).
    func primaryKeyIndex(_ table: ItemTable, _ attributes: [String: AttributeValue]) -> Data {
        var parts: [(name: String, bytes: [UInt8])] = []
        parts.reserveCapacity(table.primaryKeyAttributes.count)
        // The pair's halves are primary-key attributes: their columns' indexes are MACs of the
        // same bytes (16 zero bytes for an absent half, as the schema upgrade fills it).
        var first: Data?, second: Data?
        for attribute in table.primaryKeyAttributes {
            let present = attributes[attribute.name]
            let bytes = (present ?? attribute.defaultValue).matchBytes(for: attribute.kind)
            parts.append((attribute.name, bytes))
            guard present != nil else { continue }
            if attribute.name == table.lookupPair.0 {
                first = rememberedIndex(attribute.name, matchBytes: bytes)
            } else if attribute.name == table.lookupPair.1 {
                second = index.index(attribute.name, matchBytes: bytes)
            }
        }
        var key: [UInt8] = []
        key.reserveCapacity(48)
        func append(_ half: Data?) {
            if let half { key.append(bytesOf: half) } else { key += repeatElement(0, count: 16) }
        }
        append(first)
        append(second)
        key.append(bytesOf: index.primaryKey(table.name, parts))
        return Data(key)
    }

    /// Seals a secret under its class key and, with `presenceKey`, first to the presence key.
    func sealSecret(_ secret: Data?, table: ItemTable, persistentReference: Data, protection: ProtectionClass,
                    presenceKey: Curve25519.KeyAgreement.PublicKey? = nil) throws(KeychainStoreError) -> Data {
        try sealEncodedSecret(SecretCodec.encode(secret), table: table, persistentReference: persistentReference,
                              protection: protection, presenceKey: presenceKey)
    }

    func sealEncodedSecret(_ encoded: Data, table: ItemTable, persistentReference: Data, protection: ProtectionClass,
                           presenceKey: Curve25519.KeyAgreement.PublicKey?) throws(KeychainStoreError) -> Data {
        let classKey = try keybag.key(for: protection)
        guard let presenceKey else {
            return try ItemSealer.seal(encoded, part: .secret, table: table.name, persistentRef: persistentReference,
                                       protection: protection, classKey: classKey, reserve: writeRandom)
        }
        let inner = try PresenceSeal.seal(encoded, to: presenceKey, table: table.name, persistentRef: persistentReference)
        return try ItemSealer.seal(inner, part: .secret, table: table.name, persistentRef: persistentReference,
                                   protection: protection, classKey: classKey, format: ItemSealer.presenceFormat,
                                   reserve: writeRandom)
    }

    /// A row found by its primary key.
    struct PrimaryKeyRow {
        let rowid: Int64
        let isTombstone: Bool
        let persistentReference: Data
    }

    /// The row holding `primaryKey` other than `excluding`, if any.
    func row(withPrimaryKey primaryKey: Data, in table: ItemTable, excluding: Int64? = nil) throws(KeychainStoreError) -> PrimaryKeyRow? {
        let statement = try db.statement("SELECT rowid, tomb, persistref FROM \(table.name) WHERE pk = ?")
        statement.bind([.blob(primaryKey)])
        while try statement.step() {
            let rowid = statement.int64(0)
            if rowid == excluding { continue }
            return PrimaryKeyRow(rowid: rowid, isTombstone: statement.int64(1) != 0, persistentReference: statement.blob(2) ?? Data())
        }
        return nil
    }

    func deleteRow(_ table: ItemTable, rowid: Int64, persistentReference: Data) throws(KeychainStoreError) {
        try db.statement("DELETE FROM \(table.name) WHERE rowid = ?").run([.integer(rowid)])
        // Only a reference that does not name its row has an entry to remove. (A stale entry
        // would be harmless, since the row's own reference must match too, but it would stay.)
        if !reference(persistentReference, names: rowid) {
            try db.statement("DELETE FROM \(table.referencesName) WHERE persistref = ?").run([.blob(persistentReference)])
        }
    }
}
