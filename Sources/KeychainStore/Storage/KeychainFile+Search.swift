#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A matched row, its attributes opened.
struct MatchedRow {
    let rowid: Int64
    let persistentReference: Data
    let protection: ProtectionClass
    var attributes: [String: AttributeValue]
    /// The key the attributes were sealed under, for rewriting them in place
    /// (``ItemSealer/ItemKey``); kept only when the caller asked, as an update does.
    let attributesKey: ItemSealer.ItemKey?
    let sealedSecret: Data?
    var secret: Data?
    /// For an item whose access control requires authentication: its secret with the class-key
    /// layer opened, still sealed to the presence key (see ``PresenceSeal``).
    var presenceSealed: Data?
    /// The credential that opened `presenceSealed`, once the caller authenticated.
    var credential: PresenceCredential?

    var needsAuthentication: Bool { presenceSealed != nil }
}

/// How a query selects rows: SQL conditions on the index columns, and the filters checked again
/// on the opened attributes.
struct RowSelection {
    var conditions: [String]
    var arguments: [SQLiteStatement.Value]
    /// Filters answered through a column, re-checked because columns are not authenticated.
    var indexedFilters: [(String, AttributeValue, AttributeKind)]
    /// Filters on attributes without a column: checked only on the opened attributes.
    var postFilters: [(String, AttributeValue, AttributeKind)]
}

extension KeychainFile.State {
    /// The SQL conditions that select `query`'s rows for `identity` by their index columns, and
    /// the filters to check again on the opened attributes.
    func selection(_ query: ItemQuery, identity: ClientIdentity) throws(KeychainStoreError) -> RowSelection {
        let table = ItemTable(query.itemClass)
        let schema = table.schema
        // Sized once: a lookup has a handful of each (growing them one append at a time was a
        // few percent of a lookup).
        let expected = query.filters.count + 4
        var conditions: [String] = []
        conditions.reserveCapacity(expected + identity.accessGroups.count)
        var arguments: [SQLiteStatement.Value] = []
        arguments.reserveCapacity(expected + identity.accessGroups.count)
        // Filters answered by SQL through a column: re-checked on the decrypted attributes,
        // because the columns are not authenticated (a row whose columns were swapped with
        // another's must not be taken for it).
        var indexedFilters: [(String, AttributeValue, AttributeKind)] = []
        indexedFilters.reserveCapacity(expected)
        // Filters on attributes without a column: checked only on the decrypted attributes.
        var postFilters: [(String, AttributeValue, AttributeKind)] = []
        var pairFirst: Data?, pairSecond: Data?

        for (name, value) in query.sortedEffectiveFilters {
            guard let attribute = schema.attribute(name) else { throw .noSuchAttribute(name) }
            switch name {
            case AttributeName.accessGroup:
                guard let group = value.stringValue, identity.canRead(group) else {
                    throw .missingEntitlement(group: value.stringValue ?? "?")
                }
                conditions.append("agrp = ?")
                arguments.append(.blob(groupIndex(group)))
            case AttributeName.accessible:
                conditions.append("keyclass = ?")
                arguments.append(.integer(Int64(value.stringValue.flatMap(ProtectionClass.init(pdmn:))?.rawValue ?? -1)))
            case AttributeName.synchronizable, AttributeName.tombstone:
                let flag = value.integerValue.map { $0 != 0 ? Int64(1) : 0 }
                conditions.append("\(name) = ?")
                arguments.append(.integer(flag ?? -1))
                indexedFilters.append((name, .integer(flag ?? -1), attribute.kind))
                continue
            default:
                if ItemSchema.fixedColumns.contains(name) {
                    postFilters.append((name, value, attribute.kind))
                    continue
                }
                if name == table.lookupPair.0 {
                    pairFirst = rememberedIndex(name, matchBytes: value.matchBytes(for: attribute.kind))
                } else if name == table.lookupPair.1 {
                    pairSecond = index.index(name, value, kind: attribute.kind)
                } else {
                    conditions.append("\(attribute.columnName) = ?")
                    arguments.append(.blob(index.index(name, value, kind: attribute.kind)))
                }
            }
            indexedFilters.append((name, value, attribute.kind))
        }
        // The pair's first half, with or without the second, is a range of the primary-key index
        // (whose keys begin with both halves' blind indexes); the second half alone is its column.
        if let pairFirst {
            let range = Self.primaryKeyRange(pairFirst, pairSecond)
            conditions.append("pk >= ?")
            arguments.append(.blob(range.lower))
            if let upper = range.upper {
                conditions.append("pk < ?")
                arguments.append(.blob(upper))
            }
        } else if let pairSecond {
            conditions.append("i_\(table.lookupPair.1) = ?")
            arguments.append(.blob(pairSecond))
        }
        if query.filters[AttributeName.accessGroup] == nil && !identity.seesAllGroups {
            conditions.append("agrp IN (\(identity.accessGroups.map { _ in "?" }.joined(separator: ", ")))")
            arguments += identity.accessGroups.map { .blob(groupIndex($0)) }
        }
        if let reference = query.persistentReference {
            let (condition, values) = referenceCondition(reference, in: table)
            conditions.append(condition)
            arguments += values
        }
        return RowSelection(conditions: conditions, arguments: arguments, indexedFilters: indexedFilters, postFilters: postFilters)
    }

    /// Finds the rows matching `query` for `identity`, opening their attributes (and secrets when
    /// asked), in insertion order, stopping after `limit` rows.
    ///
    /// Matches Security: an item whose protection class is locked fails the whole call with
    /// `errSecInteractionNotAllowed`, even when other matches are readable; items of groups the
    /// caller does not hold are invisible. A damaged item is skipped; if every match is damaged
    /// the call fails with `errSecDecode` rather than pretending nothing is there.
    ///
    /// - Parameter keepingAttributesKeys: whether each row keeps the key its attributes opened
    ///   with, for a rewrite in place; a read does not pay for carrying it.
    func matchingRows(_ query: ItemQuery, identity: ClientIdentity, limit: Int?, openSecrets: Bool,
                      keepingAttributesKeys: Bool = false) throws(KeychainStoreError) -> [MatchedRow] {
        let table = ItemTable(query.itemClass)
        let selection = try selection(query, identity: identity)
        let (conditions, arguments, indexedFilters, postFilters) = (selection.conditions, selection.arguments,
                                                                    selection.indexedFilters, selection.postFilters)
        let statement = try db.statement(selectSQL("rowid, persistref, keyclass, meta, secret", table, conditions))
        statement.bind(arguments)

        var rows: [MatchedRow] = []
        var damaged = 0
        while try statement.step() {
            if let limit, rows.count >= limit { break }
            guard let reference = statement.blob(1), let protection = ProtectionClass(rawValue: Int(statement.int64(2))),
                  let meta = statement.blob(3) else { damaged += 1; continue }
            let classKey = try keybag.key(for: protection)
            let attributes: [String: AttributeValue]
            let binding: SecretBinding?
            var attributesKey: ItemSealer.ItemKey?
            do {
                let plaintext: Data
                if keepingAttributesKeys {
                    (plaintext, attributesKey) = try ItemSealer.openKeepingKey(meta, part: .attributes, table: table.name,
                                                                               persistentRef: reference, protection: protection, classKey: classKey)
                } else {
                    plaintext = try ItemSealer.open(meta, part: .attributes, table: table.name, persistentRef: reference,
                                                    protection: protection, classKey: classKey)
                }
                if meta.first == ItemSealer.boundFormat {
                    let (decoded, start) = try SecretBinding.decode(plaintext)
                    binding = decoded
                    attributes = try AttributeCodec.decode(plaintext[start...])
                } else {
                    binding = nil  // written before schema 5: bound at its next write
                    attributes = try AttributeCodec.decode(plaintext)
                }
            } catch {
                damaged += 1
                continue
            }
            // The columns are only indexes; the sealed attributes are the truth.
            guard let group = attributes[AttributeName.accessGroup]?.stringValue, identity.canRead(group) else { continue }
            guard indexedFilters.allSatisfy({ Self.matches(attributes, $0) }) else { damaged += 1; continue }
            guard postFilters.allSatisfy({ Self.matches(attributes, $0) }) else { continue }
            let sealedSecret = statement.blob(4)
            // A secret that is not the one written with these attributes (an older one put back)
            // is damage, never an answer.
            if let binding, !binding.matches(sealedSecret) { damaged += 1; continue }
            if openSecrets && sealedSecret == nil && attributes[AttributeName.tombstone]?.integerValue != 1 {
                // Every live item has a sealed secret (even "no data" is sealed); its absence is damage.
                damaged += 1
                continue
            }
            var row = MatchedRow(rowid: statement.int64(0), persistentReference: reference, protection: protection,
                                 attributes: attributes, attributesKey: attributesKey, sealedSecret: sealedSecret, secret: nil)
            // A protected secret is always opened down to its presence layer, even for an
            // attribute-only read: the caller must authenticate for those too (as on Apple
            // platforms), and the presence layer is what proves the authentication. Whether it is
            // protected comes from the sealed attributes (their binding), which the blob matched.
            let protected = binding?.requiresAuthentication ?? ItemSealer.isPresenceSealed(sealedSecret)
            if (openSecrets || protected), let sealedSecret {
                do {
                    let plaintext = try ItemSealer.open(sealedSecret, part: .secret, table: table.name, persistentRef: reference,
                                                        protection: protection, classKey: classKey)
                    if protected {
                        row.presenceSealed = plaintext
                    } else {
                        row.secret = try SecretCodec.decode(plaintext)
                    }
                } catch {
                    damaged += 1
                    continue
                }
            }
            rows.append(row)
        }
        if rows.isEmpty && damaged > 0 {
            throw .decode("the matching item failed its integrity check (the keychain file was modified or damaged)")
        }
        return rows
    }

    /// `SELECT columns FROM table WHERE conditions ORDER BY rowid`, joined once per shape of
    /// query and remembered (joining it again cost every lookup several thousand instructions).
    /// The conditions are fixed texts with `?` placeholders, never values, so the few shapes a
    /// program uses are all there is to remember; bounded all the same.
    func selectSQL(_ columns: String, _ table: ItemTable, _ conditions: [String]) -> String {
        let shape = KeychainFile.SelectShape(columns: columns, table: table.name, conditions: conditions)
        if let known = selectTexts[shape] { return known }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(columns) FROM \(table.name)\(whereClause) ORDER BY rowid"
        if selectTexts.count >= 128 { selectTexts.removeAll(keepingCapacity: true) }
        selectTexts[shape] = sql
        return sql
    }

    /// Whether the decrypted attributes hold `filter`'s value (sync and tomb as 0/1 flags).
    static func matches(_ attributes: [String: AttributeValue], _ filter: (String, AttributeValue, AttributeKind)) -> Bool {
        let (name, value, kind) = filter
        guard let stored = attributes[name] else { return false }
        if name == AttributeName.synchronizable || name == AttributeName.tombstone {
            return AttributeValue.integer((stored.integerValue ?? 0) != 0 ? 1 : 0) == value
        }
        return stored.matchBytes(for: kind) == value.matchBytes(for: kind)
    }

    /// The range of `pk` values whose items have the pair's first half `first` and, when given,
    /// second half `second` (each a column's blind index): every key starting with those bytes.
    /// The upper end is nil when the prefix is all 0xff bytes (nothing sorts after it).
    static func primaryKeyRange(_ first: Data, _ second: Data?) -> (lower: Data, upper: Data?) {
        var upper: [UInt8] = []
        upper.reserveCapacity(first.count + (second?.count ?? 0))
        upper.append(bytesOf: first)
        if let second { upper.append(bytesOf: second) }
        let lower = Data(upper)
        while let last = upper.last {
            if last < 0xff {
                upper[upper.count - 1] = last + 1
                return (lower, Data(upper))
            }
            upper.removeLast()
        }
        return (lower, nil)
    }
}
